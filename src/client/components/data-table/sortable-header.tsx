import type { ReactNode, SVGProps } from 'react'
import { Icon } from '@/client/components/ui/icons'
import { cn } from '@/client/lib/cn'

/** What a header cell needs of a TanStack Table column. */
export interface SortableColumn {
  getCanSort(): boolean
  getIsSorted(): false | 'asc' | 'desc'
  getToggleSortingHandler(): ((event: unknown) => void) | undefined
}

const ariaSort = { asc: 'ascending', desc: 'descending' } as const

/**
 * A column's header cell: its label, a button that sorts by it when the column can be sorted (with
 * `aria-sort` telling the current order), or a label for screen readers only (`hideLabel`).
 */
export function SortableHeader({
  column,
  label,
  hideLabel = false,
  className,
}: {
  column: SortableColumn
  label: ReactNode
  hideLabel?: boolean
  className?: string
}) {
  const canSort = column.getCanSort()
  const sorted = column.getIsSorted()
  return (
    <th
      scope="col"
      aria-sort={canSort ? (sorted ? ariaSort[sorted] : 'none') : undefined}
      className={cn('px-3 py-2 font-medium whitespace-nowrap text-muted-foreground', className)}
    >
      {hideLabel ? (
        <span className="sr-only">{label}</span>
      ) : canSort ? (
        <button
          type="button"
          onClick={column.getToggleSortingHandler()}
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
}

/** Sort order of a column: up (ascending), down (descending), or both (not sorted by it). */
const SortIcon = ({ sorted, ...props }: SVGProps<SVGSVGElement> & { sorted: 'asc' | 'desc' | false }) => (
  <Icon {...props}>
    {sorted !== 'desc' && <path d={sorted === 'asc' ? 'm7 14 5-5 5 5' : 'm7 9 5-5 5 5'} />}
    {sorted !== 'asc' && <path d={sorted === 'desc' ? 'm7 10 5 5 5-5' : 'm7 15 5 5 5-5'} />}
  </Icon>
)
