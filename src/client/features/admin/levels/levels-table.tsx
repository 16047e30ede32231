import { useStore } from '@nanostores/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { type PaginationState, useTable } from '@tanstack/react-table'
import { useCallback, useEffect } from 'react'
import { type LanguageLevel, levelSortKeys } from '@/shared/level-constants'
import { uiMessages } from '@/client/components/ui/messages'
import { Skeleton } from '@/client/components/ui/skeleton'
import { EmptyState } from '@/client/components/ui/empty-state'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { Pagination } from '@/client/components/data-table/pagination'
import { SearchBox } from '@/client/components/data-table/search-box'
import { resolveUpdater, sortOf, sortingOf } from '@/client/components/data-table/search-state'
import { SortableHeader } from '@/client/components/data-table/sortable-header'
import { cn } from '@/client/lib/cn'
import { levelListQuery } from './api'
import type { DeletableLevel } from './delete-level-dialog'
import { type ColumnId, DeleteContext, columnClass, columnLabel, columns, features } from './levels-columns'
import { QUERY_MAX, pageSizes } from './levels-search'
import { levelsAdminMessages } from './messages'

const route = getRouteApi('/admin/language-levels/')
const noRows: LanguageLevel[] = []

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
      const next = sortOf(resolveUpdater(updater, sorting), levelSortKeys, 'position')
      void navigate({ search: (prev) => ({ ...prev, sort: next, page: 1 }) })
    },
    onPaginationChange: (updater) => {
      const next = resolveUpdater(updater, pagination)
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
                      return (
                        <SortableHeader
                          key={header.id}
                          column={header.column}
                          label={columnLabel(id, t)}
                          hideLabel={id === 'actions'}
                          className={columnClass[id]}
                        />
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
