import { useStore } from '@nanostores/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTable } from '@tanstack/react-table'
import { Suspense, lazy, useCallback, useMemo, useRef } from 'react'
import { WORD_QUERY_MAX, type Word } from '@/shared/words'
import { serverTableOptions, useTableSearch } from '@/client/components/data-table/server-table'
import { Button, buttonClass } from '@/client/components/ui/button'
import { Card } from '@/client/components/ui/card'
import { PlusIcon } from '@/client/components/ui/icons'
import { WordDeleteDialog, useWordDelete } from '@/client/components/words/word-delete'
import { WordsTable } from '@/client/components/words/words-table'
import { toast } from '@/client/lib/toast'
import { useDialogRound } from '@/client/lib/use-dialog-round'
import { useWordsCache, wordListQuery, wordsApi, wordsFileUrl } from './api'
import { wordsAdminMessages } from './messages'
import { type ColumnId, type WordActions, WordActionsContext, columnClass, columnLabel, columns, features } from './words-columns'

// The dialogs come with their first opening, not with the level's page.
const WordDialog = lazy(() => import('./dialogs/word-dialog'))
const ImportDialog = lazy(() => import('./dialogs/import-dialog'))

const route = getRouteApi('/admin/language-levels/$id')
const noRows: Word[] = []
/** The API has one order (as added): the table's sort stays this, and is not in the URL. */
const fixedSort = 'id' as const

/** Which dialog is open. */
type Opened = { kind: 'word'; word: Word | null } | { kind: 'import' }

/** The "Words" section of a level's page: search, pages, add, edit, delete, and the CSV file. */
export default function WordsSection({ levelId }: { levelId: number }) {
  const t = useStore(wordsAdminMessages)
  const words = useWordsCache()
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const { q, page, pageSize } = search
  const params = useMemo(() => ({ q: q || undefined, page, pageSize }), [q, page, pageSize])
  const query = useQuery({ ...wordListQuery(levelId, params), placeholderData: keepPreviousData })
  const data = query.data
  const setSearch = useTableSearch(search, navigate, query)
  // Where focus goes when a dialog closes and the row button that opened it has gone.
  const addButton = useRef<HTMLButtonElement>(null)
  const { opened, open, openDialog, close } = useDialogRound<Opened>()

  const table = useTable({
    features,
    columns,
    data: data?.items ?? noRows,
    getRowId: (word) => String(word.id),
    enableSorting: false,
    ...serverTableOptions({
      search: { ...search, sort: fixedSort },
      sortKeys: [fixedSort],
      defaultSort: fixedSort,
      total: data?.total ?? 0,
      setSearch: ({ page: nextPage, pageSize: nextSize }) => setSearch({ page: nextPage, pageSize: nextSize }),
    }),
  })
  const onSearch = useCallback((text: string) => setSearch({ q: text, page: 1 }, true), [setSearch])

  const deletion = useWordDelete({
    remove: (word: Word) => wordsApi.remove(word.id),
    onDeleted: async (word) => {
      toast({ title: wordsAdminMessages.get().deleted({ text: word.text }), variant: 'success' })
      await words.refresh()
    },
  })
  const actions: WordActions = { edit: (word) => openDialog({ kind: 'word', word }), remove: deletion.ask }

  /** The word as it is now, for the form's Reload: the current page read again. */
  const fetchCurrent = async (id: number) => {
    const current = await words.current(levelId, params)
    return current.items.find((word) => word.id === id)
  }

  return (
    <Card
      title={t.title}
      lead={t.lead}
      actions={
        <div className="flex flex-wrap gap-2">
          <Button ref={addButton} size="sm" onClick={() => openDialog({ kind: 'word', word: null })}>
            <PlusIcon className="size-4" />
            {t.add}
          </Button>
          <a href={wordsFileUrl(levelId)} download className={buttonClass({ variant: 'outline', size: 'sm' })}>
            {t.exportCsv}
          </a>
          <Button variant="outline" size="sm" onClick={() => openDialog({ kind: 'import' })}>
            {t.importCsv}
          </Button>
        </div>
      }
    >
      <WordActionsContext.Provider value={actions}>
        <WordsTable
          texts={t}
          q={q}
          onSearch={onSearch}
          maxLength={WORD_QUERY_MAX}
          table={table}
          query={query}
          page={page}
          pageSize={pageSize}
          columnCount={columns.length}
          columnClass={columnClass}
          columnLabel={(id) => columnLabel(id as ColumnId, t)}
          renderCell={(cell) => <table.FlexRender cell={cell} />}
        />
      </WordActionsContext.Provider>
      {opened && (
        <Suspense fallback={null}>
          {opened.value.kind === 'word' ? (
            <WordDialog
              key={opened.round}
              levelId={levelId}
              word={opened.value.word}
              open={open}
              returnFocus={addButton}
              onClose={close}
              fetchCurrent={fetchCurrent}
            />
          ) : (
            <ImportDialog key={opened.round} levelId={levelId} open={open} returnFocus={addButton} onClose={close} />
          )}
        </Suspense>
      )}
      <WordDeleteDialog texts={t} state={deletion} returnFocus={addButton} />
    </Card>
  )
}
