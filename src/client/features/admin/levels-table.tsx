import { useStore } from '@nanostores/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link, getRouteApi } from '@tanstack/react-router'
import {
  type PaginationState,
  type SortingState,
  type Updater,
  createColumnHelper,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
} from '@tanstack/react-table'
import { createContext, useCallback, useContext, useEffect } from 'react'
import { type LanguageLevel, type LevelSort, levelSortKeys } from '@/shared/level-constants'
import { Button } from '@/client/components/ui/button'
import { SortIcon } from '@/client/components/ui/icons'
import { uiMessages } from '@/client/components/ui/messages'
import { Skeleton } from '@/client/components/ui/skeleton'
import { EmptyState } from '@/client/components/ui/empty-state'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { cn } from '@/client/lib/cn'
import { format } from '@/client/lib/i18n'
import { levelListQuery } from '@/client/lib/levels-api'
import type { DeletableLevel } from './delete-level-dialog'
import { QUERY_MAX, pageSizes } from './levels-search'
import { levelsAdminMessages } from './messages'
import { Pagination } from './pagination'
import { SearchBox } from './search-box'

const route = getRouteApi('/admin/language-levels/')

// Sorting, searching and paging happen on the server; the table keeps their state (from the URL).
const features = tableFeatures({ rowSortingFeature, rowPaginationFeature })
const column = createColumnHelper<typeof features, LanguageLevel>()
const noRows: LanguageLevel[] = []

/** Asks the row's page to confirm a deletion (the dialog lives on the page). */
const DeleteContext = createContext<(level: DeletableLevel) => void>(() => undefined)

function UpdatedCell({ value }: { value: string }) {
  const formats = useStore(format)
  return (
    <time dateTime={value} className="whitespace-nowrap">
      {formats.time(new Date(value), { dateStyle: 'medium', timeStyle: 'short' })}
    </time>
  )
}

function PositionCell({ value }: { value: number }) {
  const formats = useStore(format)
  return formats.number(value + 1)
}

function DeleteCell({ level }: { level: LanguageLevel }) {
  const t = useStore(levelsAdminMessages)
  const askDelete = useContext(DeleteContext)
  return (
    // Above the row's link, which covers the row.
    <Button
      variant="outline"
      size="sm"
      className="relative z-10 text-error"
      aria-label={t.deleteNamed({ code: level.code })}
      onClick={() => askDelete(level)}
    >
      {t.delete}
    </Button>
  )
}

const columns = column.columns([
  column.accessor('position', { cell: (info) => <PositionCell value={info.getValue()} /> }),
  column.accessor('code', {
    cell: (info) => (
      <Link
        to="/admin/language-levels/$id"
        params={{ id: String(info.row.original.id) }}
        // The link covers the whole row, so a click anywhere on it opens the level.
        className="font-mono font-semibold break-all text-primary-text underline-offset-4 after:absolute after:inset-0 hover:underline"
      >
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor('name', { cell: (info) => <span className="break-words">{info.getValue()}</span> }),
  column.accessor('description', {
    enableSorting: false,
    cell: (info) => <span className="line-clamp-2 text-muted-foreground">{info.getValue()}</span>,
  }),
  column.accessor('updatedAt', { sortDescFirst: true, cell: (info) => <UpdatedCell value={info.getValue()} /> }),
  column.display({ id: 'actions', cell: (info) => <DeleteCell level={info.row.original} /> }),
])

type ColumnId = 'position' | 'code' | 'name' | 'description' | 'updatedAt' | 'actions'

const columnClass: Record<ColumnId, string> = {
  position: 'hidden w-20 text-right tabular-nums sm:table-cell',
  code: 'w-28',
  name: 'min-w-32',
  description: 'hidden md:table-cell',
  updatedAt: 'hidden w-48 lg:table-cell',
  actions: 'w-24 text-right',
}

function columnLabel(id: ColumnId, t: ReturnType<typeof levelsAdminMessages.get>): string {
  if (id === 'actions') return t.actions
  return id === 'updatedAt' ? t.updated : t[id]
}

function sortingOf(sort: LevelSort): SortingState {
  const desc = sort.startsWith('-')
  return [{ id: desc ? sort.slice(1) : sort, desc }]
}

function sortOf(sorting: SortingState): LevelSort {
  const first = sorting[0]
  const key = levelSortKeys.find((candidate) => candidate === first?.id)
  if (!first || !key) return 'position'
  return first.desc ? `-${key}` : key
}

const resolve = <T,>(updater: Updater<T>, current: T): T =>
  typeof updater === 'function' ? (updater as (old: T) => T)(current) : updater

/** The table of levels with its search, sort and pages, all kept in the URL. */
export function LevelsTable({ onDelete }: { onDelete: (level: DeletableLevel) => void }) {
  const t = useStore(levelsAdminMessages)
  const ui = useStore(uiMessages)
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const { q, sort, page, pageSize } = search
  const query = useQuery({
    ...levelListQuery({ q: q || undefined, sort, page, pageSize }),
    placeholderData: keepPreviousData,
  })
  const data = query.data
  const sorting = sortingOf(sort)
  const pagination: PaginationState = { pageIndex: page - 1, pageSize }

  const table = useTable({
    features,
    columns,
    data: data?.items ?? noRows,
    getRowId: (level) => String(level.id),
    state: { sorting, pagination },
    onSortingChange: (updater) => {
      const next = sortOf(resolve(updater, sorting))
      void navigate({ search: (prev) => ({ ...prev, sort: next, page: 1 }) })
    },
    onPaginationChange: (updater) => {
      const next = resolve(updater, pagination)
      void navigate({
        search: (prev) => ({
          ...prev,
          page: next.pageSize === pageSize ? next.pageIndex + 1 : 1,
          pageSize: next.pageSize,
        }),
      })
    },
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    enableMultiSort: false,
    rowCount: data?.total ?? 0,
  })

  const onSearch = useCallback(
    (text: string) => void navigate({ search: (prev) => ({ ...prev, q: text, page: 1 }), replace: true }),
    [navigate],
  )

  // Past the last page (levels were deleted, or an old link): go to the last page there is.
  const lastPage = Math.max(1, Math.ceil((data?.total ?? 0) / pageSize))
  const pastEnd = data !== undefined && !query.isPlaceholderData && data.items.length === 0 && page > lastPage
  useEffect(() => {
    if (pastEnd) void navigate({ search: (prev) => ({ ...prev, page: lastPage }), replace: true })
  }, [pastEnd, lastPage, navigate])

  const refreshing = query.isFetching && query.isPlaceholderData
  const headerGroups = table.getHeaderGroups()

  return (
    <DeleteContext.Provider value={onDelete}>
      <div className="grid grid-cols-1 gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="w-full max-w-sm">
            <SearchBox
              label={t.search}
              placeholder={t.searchPlaceholder}
              value={q}
              maxLength={QUERY_MAX}
              onSearch={onSearch}
            />
          </div>
          <p role="status" className="text-sm text-muted-foreground">
            {refreshing ? t.refreshing : ''}
          </p>
        </div>
        {query.isError && !data ? (
          <ErrorAlert error={query.error} onRetry={query.refetch} />
        ) : (
          <div className="overflow-x-auto rounded-xl border bg-card">
            <table className="w-full text-sm" aria-busy={query.isPending}>
              <caption className="sr-only">{t.tableCaption}</caption>
              <thead className="border-b bg-muted/50 text-left">
                {headerGroups.map((group) => (
                  <tr key={group.id}>
                    {group.headers.map((header) => {
                      const id = header.column.id as ColumnId
                      const label = columnLabel(id, t)
                      const canSort = header.column.getCanSort()
                      const sorted = header.column.getIsSorted()
                      return (
                        <th
                          key={header.id}
                          scope="col"
                          aria-sort={
                            canSort ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined
                          }
                          className={cn('px-3 py-2 font-medium whitespace-nowrap text-muted-foreground', columnClass[id])}
                        >
                          {id === 'actions' ? (
                            <span className="sr-only">{label}</span>
                          ) : canSort ? (
                            <button
                              type="button"
                              onClick={header.column.getToggleSortingHandler()}
                              className={cn(
                                '-mx-2 inline-flex items-center gap-1 rounded-md px-2 py-1 hover:bg-accent hover:text-foreground',
                                sorted && 'text-foreground',
                              )}
                            >
                              {label}
                              <SortIcon sorted={sorted} className="size-4" />
                            </button>
                          ) : (
                            label
                          )}
                        </th>
                      )
                    })}
                  </tr>
                ))}
              </thead>
              <tbody className={cn('divide-y', refreshing && 'opacity-60')}>
                {query.isPending &&
                  [0, 1, 2, 3, 4].map((row) => (
                    <tr key={row} aria-hidden="true">
                      <td colSpan={columns.length} className="px-3 py-3">
                        <Skeleton className="h-6 w-full" />
                      </td>
                    </tr>
                  ))}
                {data && data.items.length === 0 && (
                  <tr>
                    <td colSpan={columns.length} className="px-3 py-6">
                      <EmptyState
                        title={q ? ui.noMatch : ui.noData}
                        hint={q ? t.noMatchHint : t.emptyHint}
                      />
                    </td>
                  </tr>
                )}
                {table.getRowModel().rows.map((row) => (
                  <tr key={row.id} className="relative hover:bg-muted/50 focus-within:bg-muted/50">
                    {row.getAllCells().map((cell) => (
                      <td key={cell.id} className={cn('px-3 py-3 align-top', columnClass[cell.column.id as ColumnId])}>
                        <table.FlexRender cell={cell} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            {query.isPending && (
              <p role="status" className="sr-only">
                {t.loading}
              </p>
            )}
          </div>
        )}
        {data && data.total > 0 && (
          <Pagination
            label={t.pagination}
            page={page}
            pageSize={pageSize}
            total={data.total}
            onPage={(target) => table.setPageIndex(target - 1)}
            pageSizes={pageSizes}
            onPageSize={(size) => table.setPageSize(size)}
          />
        )}
      </div>
    </DeleteContext.Provider>
  )
}
