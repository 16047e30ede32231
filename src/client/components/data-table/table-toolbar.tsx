import type { ComponentProps, ReactNode } from 'react'
import { SearchBox } from './search-box'

/**
 * Above a server table: its search box (with a hint under it, if any) and the table's filters
 * beside it; then a line that says when the rows of a new search are on their way, with the
 * actions on the table at its end (e.g. clearing the filters).
 */
export function TableToolbar({
  search,
  hint,
  filters,
  refreshing,
  actions,
}: {
  search: ComponentProps<typeof SearchBox>
  hint?: ReactNode
  filters?: ReactNode
  /** Said while new rows are on their way; empty otherwise. */
  refreshing: string
  actions?: ReactNode
}) {
  return (
    <>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,22rem)_1fr] lg:items-start">
        <div className="grid gap-1.5">
          <SearchBox {...search} />
          {hint}
        </div>
        {filters}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p role="status" className="text-sm text-muted-foreground">
          {refreshing}
        </p>
        {actions}
      </div>
    </>
  )
}
