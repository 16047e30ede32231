import { useStore } from '@nanostores/react'
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTable } from '@tanstack/react-table'
import { Suspense, lazy, useCallback, useMemo, useRef, useState } from 'react'
import { WORD_QUERY_MAX, type Word } from '@/shared/words'
import { ConfirmDialog } from '@/client/components/confirm-dialog'
import { ServerTable, isRefreshing, serverTableOptions, useTableSearch } from '@/client/components/data-table/server-table'
import { pageSizes } from '@/client/components/data-table/search-state'
import { TableToolbar } from '@/client/components/data-table/table-toolbar'
import { Button, buttonClass } from '@/client/components/ui/button'
import { Card } from '@/client/components/ui/card'
import { EmptyState } from '@/client/components/ui/empty-state'
import { PlusIcon } from '@/client/components/ui/icons'
import { uiMessages } from '@/client/components/ui/messages'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'
import { toast } from '@/client/lib/toast'
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

/** Which dialog is open; `round` counts openings, so that each starts afresh. */
type Opened = { kind: 'word'; word: Word | null; round: number } | { kind: 'import'; round: number }

/** The "Words" section of a level's page: search, pages, add, edit, delete, and the CSV file. */
export default function WordsSection({ levelId }: { levelId: number }) {
  const t = useStore(wordsAdminMessages)
  const ui = useStore(uiMessages)
  const errorTexts = useStore(apiErrorMessages)
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

  const [opened, setOpened] = useState<Opened | null>(null)
  const [open, setOpen] = useState(false)
  const [deleting, setDeleting] = useState<Word | null>(null)
  const openDialog = (next: { kind: 'word'; word: Word | null } | { kind: 'import' }) => {
    setOpened((previous) => ({ ...next, round: (previous?.round ?? 0) + 1 }))
    setOpen(true)
  }

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

  const remove = useMutation({
    mutationFn: async (word: Word) => {
      try {
        await wordsApi.remove(word.id)
      } catch (error) {
        // Deleted by someone else first: gone all the same.
        if (!(error instanceof ApiRequestError && error.status === 404)) throw error
      }
      return word
    },
    onSuccess: async (word) => {
      toast({ title: wordsAdminMessages.get().deleted({ text: word.text }), variant: 'success' })
      // The row goes before the dialog closes: focus then falls back to "Add word", not to a
      // button about to disappear.
      await words.refresh()
      setDeleting(null)
    },
  })
  const actions: WordActions = {
    edit: (word) => openDialog({ kind: 'word', word }),
    remove: (word) => {
      remove.reset()
      setDeleting(word)
    },
  }

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
        <div className="grid grid-cols-1 gap-4">
          <TableToolbar
            search={{ label: t.search, placeholder: t.searchPlaceholder, value: q, maxLength: WORD_QUERY_MAX, onSearch }}
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
      </WordActionsContext.Provider>
      {opened && (
        <Suspense fallback={null}>
          {opened.kind === 'word' ? (
            <WordDialog
              key={opened.round}
              levelId={levelId}
              word={opened.word}
              open={open}
              returnFocus={addButton}
              onClose={() => setOpen(false)}
              fetchCurrent={fetchCurrent}
            />
          ) : (
            <ImportDialog key={opened.round} levelId={levelId} open={open} returnFocus={addButton} onClose={() => setOpen(false)} />
          )}
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
