import type { PaginationState, SortingState, Updater } from '@tanstack/react-table'
import { type ReactNode, type Ref, useCallback, useEffect } from 'react'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { Skeleton } from '@/client/components/ui/skeleton'
import { cn } from '@/client/lib/cn'
import { Pagination } from './pagination'
import { type SortParam, sortOf, sortingOf } from './search-state'
import { type SortableColumn, SortableHeader } from './sortable-header'

/** The part of the URL a server-paged table changes: its sort and its page. */
export interface PagingSearch<Key extends string> {
  sort: SortParam<Key>
  page: number
  pageSize: number
}

/** The value a table's state updater (a value or a function of the old one) stands for. */
const resolveUpdater = <T,>(updater: Updater<T>, current: T): T =>
  typeof updater === 'function' ? (updater as (old: T) => T)(current) : updater

/**
 * The TanStack Table options of a table whose sorting and paging happen on the server and live in
 * the URL: a new sort goes back to page 1, a new page size too. `setSearch` merges into the URL.
 */
export function serverTableOptions<Key extends string>({
  search,
  sortKeys,
  defaultSort,
  total,
  setSearch,
}: {
  search: PagingSearch<Key>
  sortKeys: readonly Key[]
  defaultSort: SortParam<Key>
  total: number
  setSearch: (patch: Partial<PagingSearch<Key>>) => void
}) {
  const sorting: SortingState = sortingOf(search.sort)
  const pagination: PaginationState = { pageIndex: search.page - 1, pageSize: search.pageSize }
  return {
    state: { sorting, pagination },
    onSortingChange: (updater: Updater<SortingState>) =>
      setSearch({ sort: sortOf(resolveUpdater(updater, sorting), sortKeys, defaultSort), page: 1 }),
    onPaginationChange: (updater: Updater<PaginationState>) => {
      const next = resolveUpdater(updater, pagination)
      const samePageSize = next.pageSize === search.pageSize
      setSearch({ page: samePageSize ? next.pageIndex + 1 : 1, pageSize: next.pageSize })
    },
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    enableMultiSort: false,
    rowCount: total,
  } as const
}

/** A route's `navigate`, as far as a table uses it: to change its search. */
type SearchNavigate<Search> = (options: { search: (prev: Search) => Search; replace?: boolean }) => Promise<void>

/**
 * Merges a patch into the URL's search (`replace`: in place of the current history entry), and,
 * past the last page (rows were deleted, or an old link), goes to the last page there is.
 */
export function useTableSearch<Search extends { page: number; pageSize: number }>(
  search: Search,
  navigate: SearchNavigate<Search>,
  query: { data?: { total: number; items: readonly unknown[] }; isPlaceholderData: boolean },
) {
  const setSearch = useCallback(
    (patch: Partial<Search>, replace = false) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace }),
    [navigate],
  )
  const lastPage = Math.max(1, Math.ceil((query.data?.total ?? 0) / search.pageSize))
  const pastEnd = !query.isPlaceholderData && query.data?.items.length === 0 && search.page > lastPage
  useEffect(() => {
    if (pastEnd) setSearch({ page: lastPage } as Partial<Search>, true)
  }, [pastEnd, lastPage, setSearch])
  return setSearch
}

interface ServerTableCell {
  id: string
  column: { id: string }
}

/** What the table body needs of a TanStack Table instance. */
interface ServerTableInstance<Cell extends ServerTableCell> {
  getHeaderGroups(): { id: string; headers: { id: string; column: SortableColumn & { id: string } }[] }[]
  getRowModel(): { rows: { id: string; getAllCells(): Cell[] }[] }
}

/** What the table needs of its TanStack Query: the page, and how loading it goes. */
interface PageQuery {
  data?: { total: number; items: readonly unknown[] }
  error: unknown
  isError: boolean
  isPending: boolean
  isFetching: boolean
  isPlaceholderData: boolean
  refetch: () => unknown
}

/** Whether the query shows the previous page while the next one loads. */
export const isRefreshing = (query: PageQuery) => query.isFetching && query.isPlaceholderData

/**
 * A server-paged table: the error with Retry when the first page fails; else the card with the
 * header's sort buttons, skeleton rows while the first page loads, `empty` when a page has no rows,
 * the rows (dimmed while the next page loads); then `footnote` and the pagination.
 */
export function ServerTable<Cell extends ServerTableCell>({
  table,
  query,
  renderCell,
  columnCount,
  caption,
  columnLabel,
  columnClass,
  hiddenLabels = [],
  loading,
  empty,
  skeleton = <Skeleton className="h-6 w-full" />,
  cellClassName,
  regionRef,
  paging,
  footnote,
}: {
  table: ServerTableInstance<Cell> & { setPageIndex(index: number): void; setPageSize(size: number): void }
  query: PageQuery
  renderCell: (cell: Cell) => ReactNode
  columnCount: number
  caption: string
  columnLabel: (id: string) => string
  columnClass: Partial<Record<string, string>>
  hiddenLabels?: readonly string[]
  loading: string
  /** Shown in place of the rows when a page has none. */
  empty: ReactNode
  skeleton?: ReactNode
  cellClassName?: string
  /** The card, focusable, labelled by the caption: where focus goes after a page change. */
  regionRef?: Ref<HTMLDivElement>
  paging: { label: string; page: number; pageSize: number; pageSizes: readonly number[] }
  footnote?: ReactNode
}) {
  const { data, isPending } = query
  if (query.isError && !data) return <ErrorAlert error={query.error} onRetry={query.refetch} />
  return (
    <>
      <div
        ref={regionRef}
        tabIndex={regionRef ? -1 : undefined}
        role={regionRef ? 'region' : undefined}
        aria-label={regionRef ? caption : undefined}
        className="overflow-x-auto rounded-xl border bg-card"
      >
        <table className="w-full text-sm" aria-busy={isPending}>
          <caption className="sr-only">{caption}</caption>
          <thead className="border-b bg-muted/50 text-left">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <SortableHeader
                    key={header.id}
                    column={header.column}
                    label={columnLabel(header.column.id)}
                    hideLabel={hiddenLabels.includes(header.column.id)}
                    className={columnClass[header.column.id]}
                  />
                ))}
              </tr>
            ))}
          </thead>
          <tbody className={cn('divide-y', isRefreshing(query) && 'opacity-60')}>
            {isPending &&
              [0, 1, 2, 3, 4].map((row) => (
                <tr key={row} aria-hidden="true">
                  <td colSpan={columnCount} className="px-3 py-3">
                    {skeleton}
                  </td>
                </tr>
              ))}
            {data?.items.length === 0 && (
              <tr>
                <td colSpan={columnCount} className="px-3 py-6">
                  {empty}
                </td>
              </tr>
            )}
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} className="relative hover:bg-muted/50 focus-within:bg-muted/50">
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className={cn('px-3 py-3', cellClassName, columnClass[cell.column.id])}>
                    {renderCell(cell)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {isPending && (
          <p role="status" className="sr-only">
            {loading}
          </p>
        )}
      </div>
      {data && data.total > 0 && (
        <>
          {footnote}
          <Pagination
            {...paging}
            total={data.total}
            onPage={(target) => table.setPageIndex(target - 1)}
            onPageSize={(size) => table.setPageSize(size)}
          />
        </>
      )}
    </>
  )
}
