import { useStore } from '@nanostores/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTable } from '@tanstack/react-table'
import { useCallback } from 'react'
import { type LanguageLevel, levelSortKeys } from '@/shared/levels'
import { uiMessages } from '@/client/components/ui/messages'
import { EmptyState } from '@/client/components/ui/empty-state'
import { TableToolbar } from '@/client/components/data-table/table-toolbar'
import { ServerTable, isRefreshing, serverTableOptions, useTableSearch } from '@/client/components/data-table/server-table'
import { levelListQuery } from './api'
import type { DeletableLevel } from './delete-level-dialog'
import { type ColumnId, DeleteContext, columnClass, columnLabel, columns, features } from './levels-columns'
import { pageSizes } from '@/client/components/data-table/search-state'
import { QUERY_MAX } from './levels-search'
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
  const setSearch = useTableSearch(search, navigate, query)

  const table = useTable({
    features,
    columns,
    data: data?.items ?? noRows,
    getRowId: (level) => String(level.id),
    ...serverTableOptions({ search, sortKeys: levelSortKeys, defaultSort: 'position', total: data?.total ?? 0, setSearch }),
  })

  const onSearch = useCallback((text: string) => setSearch({ q: text, page: 1 }, true), [setSearch])

  return (
    <DeleteContext.Provider value={onDelete}>
      <div className="grid grid-cols-1 gap-4">
        <TableToolbar
          search={{ label: t.search, placeholder: t.searchPlaceholder, value: q, maxLength: QUERY_MAX, onSearch }}
          refreshing={isRefreshing(query) ? t.refreshing : ''}
        />
        <ServerTable
          table={table}
          query={query}
          renderCell={(cell) => <table.FlexRender cell={cell} />}
          columnCount={columns.length}
          caption={t.tableCaption}
          columnLabel={(id) => columnLabel(id as ColumnId, t)}
          columnClass={columnClass}
          hiddenLabels={['actions']}
          loading={t.loading}
          cellClassName="align-top"
          empty={<EmptyState title={q ? ui.noMatch : ui.noData} hint={q ? t.noMatchHint : t.emptyHint} />}
          paging={{ label: t.pagination, page, pageSize, pageSizes }}
        />
      </div>
    </DeleteContext.Provider>
  )
}
