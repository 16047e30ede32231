import { useId, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { ChevronRightIcon } from '@/client/components/ui/icons'
import { cn } from '@/client/lib/cn'

/**
 * A chart's data as a table, behind a button ("Show as table"): what the admin overview's charts
 * and the dashboard's calendar of practice offer beside their drawing, which assistive technology
 * does not see.
 */

/** Column headings, then rows whose first cell names the row. */
export interface ChartTable {
  columns: readonly string[]
  rows: readonly (readonly string[])[]
}

function DataTable({ id, caption, table, hidden }: { id: string; caption: string; table: ChartTable; hidden: boolean }) {
  const [first, ...numbers] = table.columns
  return (
    <div id={id} hidden={hidden} className="mt-3 overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b text-left text-muted-foreground">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              {first}
            </th>
            {numbers.map((column, index) => (
              <th
                key={column}
                scope="col"
                className={cn('py-2 font-medium', index === numbers.length - 1 ? 'text-right' : 'pr-3')}
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y">
          {table.rows.map(([head, ...cells]) => (
            <tr key={head}>
              <th scope="row" className="py-2 pr-3 text-left font-medium">
                {head}
              </th>
              {cells.map((cell, index) => (
                <td
                  // Cells of one row are positional: their column is their key.
                  key={index}
                  className={cn('py-2', index === cells.length - 1 ? 'text-right tabular-nums' : 'pr-3')}
                >
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** The button that shows and hides the table, and the table (`caption` names it for screen readers). */
export function TableAlternative({
  caption,
  table,
  showLabel,
  hideLabel,
}: {
  caption: string
  table: ChartTable
  showLabel: string
  hideLabel: string
}) {
  const [shown, setShown] = useState(false)
  const tableId = useId()
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="mt-3"
        aria-expanded={shown}
        aria-controls={tableId}
        onClick={() => setShown((open) => !open)}
      >
        <ChevronRightIcon className={cn('size-4 transition-transform', shown && 'rotate-90')} />
        {shown ? hideLabel : showLabel}
      </Button>
      <DataTable id={tableId} caption={caption} table={table} hidden={!shown} />
    </>
  )
}
