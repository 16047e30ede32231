import { useStore } from '@nanostores/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useTable } from '@tanstack/react-table'
import { useCallback, useEffect, useRef } from 'react'
import { PEOPLE_QUERY_MAX, PEOPLE_SUBSTRING_MIN, type PersonRow, peopleSortKeys } from '@/shared/people'
import { peopleListQuery } from '@/client/api/people'
import { ServerTable, isRefreshing, serverTableOptions, useTableSearch } from '@/client/components/data-table/server-table'
import { TableToolbar } from '@/client/components/data-table/table-toolbar'
import { Button } from '@/client/components/ui/button'
import { EmptyState } from '@/client/components/ui/empty-state'
import { uiMessages } from '@/client/components/ui/messages'
import { Skeleton } from '@/client/components/ui/skeleton'
import { format } from '@/client/lib/i18n'
import { peopleAdminMessages } from './messages'
import { type ColumnId, columnClass, columnLabel, columns, features } from './people-columns'
import { PeopleFilters } from './people-filters'
import { pageSizes } from '@/client/components/data-table/search-state'
import { type PeopleFilter, isNarrowed, peopleSearchDefaults } from './people-search'

const route = getRouteApi('/admin/users/')
const noRows: PersonRow[] = []

/** The table of people with its search, filters, sort and pages, all kept in the URL. */
export function PeopleTable() {
  const t = useStore(peopleAdminMessages)
  const ui = useStore(uiMessages)
  const formats = useStore(format)
  const search = route.useSearch()
  const navigate = route.useNavigate()
  const { q, role, confirmed, mfa, disabled, sort, page, pageSize } = search
  const query = useQuery({
    ...peopleListQuery({ q: q || undefined, role, confirmed, mfa, disabled, sort, page, pageSize }),
    placeholderData: keepPreviousData,
  })
  const data = query.data
  const tableRegion = useRef<HTMLDivElement>(null)
  const setSearch = useTableSearch(search, navigate, query)

  const table = useTable({
    features,
    columns,
    data: data?.items ?? noRows,
    getRowId: (person) => person.id,
    ...serverTableOptions({
      search,
      sortKeys: peopleSortKeys,
      defaultSort: peopleSearchDefaults.sort,
      total: data?.total ?? 0,
      setSearch,
    }),
  })

  const onSearch = useCallback((text: string) => setSearch({ q: text, page: 1 }, true), [setSearch])
  const onFilter = (name: PeopleFilter, value: string | undefined) => setSearch({ [name]: value, page: 1 })
  const narrowed = isNarrowed(search)
  const clear = () =>
    void navigate({ search: (prev) => ({ ...peopleSearchDefaults, sort: prev.sort, pageSize: prev.pageSize }) })


  // Reaching the first or last page disables the button that was pressed, and focus would fall
  // to the document: it goes to the table, whose new rows come next, instead.
  const shownPage = useRef(`${page}/${pageSize}`)
  useEffect(() => {
    if (shownPage.current === `${page}/${pageSize}`) return
    shownPage.current = `${page}/${pageSize}`
    const active = document.activeElement
    if (active === document.body || (active instanceof HTMLButtonElement && active.disabled)) {
      tableRegion.current?.focus({ preventScroll: true })
    }
  }, [page, pageSize])


  return (
    <div className="grid grid-cols-1 gap-4">
      <TableToolbar
        search={{ label: t.search, placeholder: t.searchPlaceholder, value: q, maxLength: PEOPLE_QUERY_MAX, onSearch }}
        hint={<p className="text-xs text-muted-foreground">{t.searchHint({ min: formats.number(PEOPLE_SUBSTRING_MIN) })}</p>}
        filters={<PeopleFilters search={search} onFilter={onFilter} onSort={(next) => setSearch({ sort: next, page: 1 })} />}
        refreshing={isRefreshing(query) ? t.refreshing : ''}
        actions={
          narrowed && (
            <Button variant="outline" size="sm" onClick={clear}>
              {t.clear}
            </Button>
          )
        }
      />
      <ServerTable
        table={table}
        query={query}
        renderCell={(cell) => <table.FlexRender cell={cell} />}
        columnCount={columns.length}
        caption={t.tableCaption}
        columnLabel={(id) => columnLabel(id as ColumnId, t)}
        columnClass={columnClass}
        loading={t.loading}
        regionRef={tableRegion}
        skeleton={
          <div className="flex items-center gap-3">
            <Skeleton className="size-10 rounded-full" />
            <Skeleton className="h-6 flex-1" />
          </div>
        }
        empty={<EmptyState title={narrowed ? ui.noMatch : ui.noData} hint={narrowed ? t.noMatchHint : t.emptyHint} />}
        paging={{ label: t.pagination, page, pageSize, pageSizes }}
        footnote={
          data?.totalCapped && (
            <p className="text-sm text-muted-foreground">{t.totalCapped({ count: formats.number(data.total) })}</p>
          )
        }
      />
    </div>
  )
}
