import { useStore } from '@nanostores/react'
import type { ComponentProps, ReactNode } from 'react'
import { pageSizes } from '@/client/components/data-table/search-state'
import { ServerTable, isRefreshing } from '@/client/components/data-table/server-table'
import { TableToolbar } from '@/client/components/data-table/table-toolbar'
import { Button } from '@/client/components/ui/button'
import { EmptyState } from '@/client/components/ui/empty-state'
import { uiMessages } from '@/client/components/ui/messages'

/** What a words table says: the admin's (a level's words) and a learner's (a deck's) have these. */
interface WordsTableTexts {
  search: string
  searchPlaceholder: string
  clearSearch: string
  refreshing: string
  tableCaption: string
  loading: string
  pagination: string
  noMatchHint: string
  emptyHint: string
}

type TableProps<Cell extends { id: string; column: { id: string } }> = ComponentProps<typeof ServerTable<Cell>>

/**
 * A server-paged table of words under its search box (with the table's `filters` beside it, and
 * "Clear search" while there is one): the rows of the search `q`, on the URL's `page`; the last
 * column, `actions`, has its label read out only.
 */
export function WordsTable<Cell extends { id: string; column: { id: string } }>({
  texts: t,
  q,
  onSearch,
  maxLength,
  filters,
  page,
  pageSize,
  ...table
}: Omit<TableProps<Cell>, 'caption' | 'loading' | 'paging' | 'empty' | 'hiddenLabels'> & {
  texts: WordsTableTexts
  q: string
  onSearch: (text: string) => void
  maxLength: number
  filters?: ReactNode
  page: number
  pageSize: number
}) {
  const ui = useStore(uiMessages)
  return (
    <div className="grid grid-cols-1 gap-4">
      <TableToolbar
        search={{ label: t.search, placeholder: t.searchPlaceholder, value: q, maxLength, onSearch }}
        filters={filters}
        refreshing={isRefreshing(table.query) ? t.refreshing : ''}
        actions={
          q && (
            <Button variant="outline" size="sm" onClick={() => onSearch('')}>
              {t.clearSearch}
            </Button>
          )
        }
      />
      <ServerTable
        {...table}
        caption={t.tableCaption}
        loading={t.loading}
        paging={{ label: t.pagination, page, pageSize, pageSizes }}
        empty={<EmptyState title={q ? ui.noMatch : ui.noData} hint={q ? t.noMatchHint : t.emptyHint} />}
        hiddenLabels={['actions']}
      />
    </div>
  )
}
