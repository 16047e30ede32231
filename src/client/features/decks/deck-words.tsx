import { useStore } from '@nanostores/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTable } from '@tanstack/react-table'
import { Suspense, lazy, useCallback, useMemo, useRef } from 'react'
import { type DeckWord, type DeckWordSort, deckWordSorts } from '@/shared/decks'
import type { SortParam } from '@/client/components/data-table/search-state'
import { SelectFilter } from '@/client/components/data-table/select-filter'
import { serverTableOptions, useTableSearch } from '@/client/components/data-table/server-table'
import { Button } from '@/client/components/ui/button'
import { Card } from '@/client/components/ui/card'
import { PlusIcon } from '@/client/components/ui/icons'
import { WordDeleteDialog, useWordDelete } from '@/client/components/words/word-delete'
import { WordsTable } from '@/client/components/words/words-table'
import { toast } from '@/client/lib/toast'
import { useDialogRound } from '@/client/lib/use-dialog-round'
import { deckWordsQuery, decksApi, useDecksCache } from './api'
import {
  type ColumnId,
  DeckLanguageContext,
  type DeckWordActions,
  DeckWordActionsContext,
  columnClass,
  columnLabel,
  columns,
  features,
} from './deck-words-columns'
import { QUERY_MAX, deckWordsSearchDefaults } from './deck-words-search'
import { deckWordsMessages } from './messages'

// The form comes with its first opening, not with the deck's page.
const loadDialog = () => import('./word-dialog')
const WordDialog = lazy(loadDialog)

const route = getRouteApi('/decks/$id')
const noRows: DeckWord[] = []

/** The API's sort and direction for the URL's sort (not in deck-words-search.ts: the route's first page has no use for it). */
function apiSort(sort: SortParam<DeckWordSort>): { sort: DeckWordSort; dir: 'asc' | 'desc' } {
  return sort.startsWith('-') ? { sort: sort.slice(1) as DeckWordSort, dir: 'desc' } : { sort: sort as DeckWordSort, dir: 'asc' }
}

const sortLabels = {
  '-created': 'sortNewest',
  created: 'sortOldest',
  text: 'sortTextAsc',
  '-text': 'sortTextDesc',
  due: 'sortDueSoonest',
  '-due': 'sortDueLatest',
} as const satisfies Record<SortParam<DeckWordSort>, keyof ReturnType<typeof deckWordsMessages.get>>
const sortOptions = Object.keys(sortLabels) as SortParam<DeckWordSort>[]

/** The words of a deck: search, sort, pages (in the URL), add, edit, delete. */
export function DeckWords({ deckId, language, read = true }: { deckId: number; language: string; read?: boolean }) {
  const t = useStore(deckWordsMessages)
  const decks = useDecksCache()
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const { q, sort, page, pageSize } = search
  const params = useMemo(() => ({ q: q || undefined, ...apiSort(sort), page, pageSize }), [q, sort, page, pageSize])
  const query = useQuery({ ...deckWordsQuery(deckId, params), placeholderData: keepPreviousData, enabled: read })
  const data = query.data
  const setSearch = useTableSearch(search, navigate, query)
  // Where focus goes when a dialog closes and the row button that opened it has gone.
  const addButton = useRef<HTMLButtonElement>(null)
  // The word to edit, null for a new one.
  const { opened, open, openDialog, close } = useDialogRound<DeckWord | null>()

  const table = useTable({
    features,
    columns,
    data: data?.items ?? noRows,
    getRowId: (word) => String(word.id),
    ...serverTableOptions({ search, sortKeys: deckWordSorts, defaultSort: deckWordsSearchDefaults.sort, total: data?.total ?? 0, setSearch }),
  })
  const onSearch = useCallback((text: string) => setSearch({ q: text, page: 1 }, true), [setSearch])

  const deletion = useWordDelete({
    remove: (word: DeckWord) => decksApi.removeWord(deckId, word.id),
    onDeleted: async (word) => {
      toast({ title: deckWordsMessages.get().deleted({ text: word.text }), variant: 'success' })
      await decks.refresh()
    },
  })
  const actions: DeckWordActions = { edit: openDialog, remove: deletion.ask }

  return (
    <Card
      title={t.title}
      lead={t.lead}
      actions={
        <Button ref={addButton} size="sm" onPointerEnter={() => void loadDialog()} onFocus={() => void loadDialog()} onClick={() => openDialog(null)}>
          <PlusIcon className="size-4" />
          {t.add}
        </Button>
      }
    >
      <DeckLanguageContext.Provider value={language}>
        <DeckWordActionsContext.Provider value={actions}>
          <WordsTable
            texts={t}
            q={q}
            onSearch={onSearch}
            maxLength={QUERY_MAX}
            // Narrower screens hide the columns that sort: the sort as a select too.
            filters={
              <SelectFilter
                label={t.sortBy}
                value={sort}
                options={sortOptions.map((value) => ({ value, label: t[sortLabels[value]] }))}
                onChange={(value) => setSearch({ sort: value, page: 1 })}
                className="lg:hidden"
              />
            }
            table={table}
            query={query}
            page={page}
            pageSize={pageSize}
            columnCount={columns.length}
            columnClass={columnClass}
            columnLabel={(id) => columnLabel(id as ColumnId, t)}
            renderCell={(cell) => <table.FlexRender cell={cell} />}
          />
        </DeckWordActionsContext.Provider>
      </DeckLanguageContext.Provider>
      {opened && (
        <Suspense fallback={null}>
          <WordDialog
            key={opened.round}
            deckId={deckId}
            language={language}
            word={opened.value}
            open={open}
            returnFocus={addButton}
            onClose={close}
          />
        </Suspense>
      )}
      <WordDeleteDialog texts={t} state={deletion} returnFocus={addButton} />
    </Card>
  )
}
