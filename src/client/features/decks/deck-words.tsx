import { useStore } from '@nanostores/react'
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTable } from '@tanstack/react-table'
import { Suspense, lazy, useCallback, useMemo, useRef, useState } from 'react'
import { type DeckWord, type DeckWordSort, deckWordSorts } from '@/shared/decks'
import { ConfirmDialog } from '@/client/components/confirm-dialog'
import { ServerTable, isRefreshing, serverTableOptions, useTableSearch } from '@/client/components/data-table/server-table'
import { type SortParam, pageSizes } from '@/client/components/data-table/search-state'
import { SelectFilter } from '@/client/components/data-table/select-filter'
import { TableToolbar } from '@/client/components/data-table/table-toolbar'
import { Button } from '@/client/components/ui/button'
import { Card } from '@/client/components/ui/card'
import { EmptyState } from '@/client/components/ui/empty-state'
import { PlusIcon } from '@/client/components/ui/icons'
import { uiMessages } from '@/client/components/ui/messages'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'
import { toast } from '@/client/lib/toast'
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

/** The word dialog's opening; `round` counts them, so that each starts afresh. */
type Opened = { word: DeckWord | null; round: number }

/** The words of a deck: search, sort, pages (in the URL), add, edit, delete. */
export function DeckWords({ deckId, language, read = true }: { deckId: number; language: string; read?: boolean }) {
  const t = useStore(deckWordsMessages)
  const ui = useStore(uiMessages)
  const errorTexts = useStore(apiErrorMessages)
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

  const [opened, setOpened] = useState<Opened | null>(null)
  const [open, setOpen] = useState(false)
  const [deleting, setDeleting] = useState<DeckWord | null>(null)
  const openDialog = (word: DeckWord | null) => {
    setOpened((previous) => ({ word, round: (previous?.round ?? 0) + 1 }))
    setOpen(true)
  }

  const table = useTable({
    features,
    columns,
    data: data?.items ?? noRows,
    getRowId: (word) => String(word.id),
    ...serverTableOptions({ search, sortKeys: deckWordSorts, defaultSort: deckWordsSearchDefaults.sort, total: data?.total ?? 0, setSearch }),
  })
  const onSearch = useCallback((text: string) => setSearch({ q: text, page: 1 }, true), [setSearch])

  const remove = useMutation({
    mutationFn: async (word: DeckWord) => {
      try {
        await decksApi.removeWord(deckId, word.id)
      } catch (error) {
        // Deleted in another tab first: gone all the same.
        if (!(error instanceof ApiRequestError && error.status === 404)) throw error
      }
      return word
    },
    onSuccess: async (word) => {
      toast({ title: deckWordsMessages.get().deleted({ text: word.text }), variant: 'success' })
      // The row goes before the dialog closes: focus then falls back to "Add word", not to a
      // button about to disappear.
      await decks.refresh()
      setDeleting(null)
    },
  })
  const actions: DeckWordActions = {
    edit: (word) => openDialog(word),
    remove: (word) => {
      remove.reset()
      setDeleting(word)
    },
  }

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
          <div className="grid grid-cols-1 gap-4">
            <TableToolbar
              search={{ label: t.search, placeholder: t.searchPlaceholder, value: q, maxLength: QUERY_MAX, onSearch }}
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
              refreshing={isRefreshing(query) ? t.refreshing : ''}
              actions={
                q && (
                  <Button variant="outline" size="sm" onClick={() => onSearch('')}>
                    {t.clearSearch}
                  </Button>
                )
              }
            />
            <ServerTable
              table={table}
              query={query}
              caption={t.tableCaption}
              loading={t.loading}
              paging={{ label: t.pagination, page, pageSize, pageSizes }}
              empty={<EmptyState title={q ? ui.noMatch : ui.noData} hint={q ? t.noMatchHint : t.emptyHint} />}
              columnCount={columns.length}
              columnClass={columnClass}
              columnLabel={(id) => columnLabel(id as ColumnId, t)}
              hiddenLabels={['actions']}
              renderCell={(cell) => <table.FlexRender cell={cell} />}
            />
          </div>
        </DeckWordActionsContext.Provider>
      </DeckLanguageContext.Provider>
      {opened && (
        <Suspense fallback={null}>
          <WordDialog
            key={opened.round}
            deckId={deckId}
            language={language}
            word={opened.word}
            open={open}
            returnFocus={addButton}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? t.deleteTitle({ text: deleting.text }) : ''}
        description={t.deleteLead}
        confirmLabel={t.confirmDelete}
        pendingLabel={t.deleting}
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, errorTexts) : undefined}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => !remove.isPending && setDeleting(null)}
        returnFocus={addButton}
      />
    </Card>
  )
}
