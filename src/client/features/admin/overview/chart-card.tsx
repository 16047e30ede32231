import { useStore } from '@nanostores/react'
import { type ReactNode, useId, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card } from '@/client/components/ui/card'
import { uiMessages } from '@/client/components/ui/messages'
import { ChevronRightIcon } from '@/client/components/ui/icons'
import { cn } from '@/client/lib/cn'
import { Chart, type ChartProps } from './chart'
import { overviewMessages } from './messages'

/** A chart's data as a table: column headings, then rows whose first cell names the row. */
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

/**
 * One chart of the overview: its title, a sentence saying what it shows (what a screen reader
 * reads instead of the drawing), the chart, and its data as a table behind a button. With nothing
 * to draw (`empty`), "No data" takes their place.
 */
export function ChartCard({
  title,
  lead,
  summary,
  empty,
  chart,
  table,
  className,
}: {
  title: string
  lead?: string
  summary: ReactNode
  empty: boolean
  chart: ChartProps
  table: ChartTable
  className?: string
}) {
  const t = useStore(overviewMessages)
  const ui = useStore(uiMessages)
  const [showTable, setShowTable] = useState(false)
  const tableId = useId()
  return (
    <Card title={title} lead={lead} className={className}>
      <p className="text-sm">{summary}</p>
      {empty ? (
        <p className="mt-4 rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">{ui.noData}</p>
      ) : (
        <>
          <div className="mt-4">
            <Chart {...chart} />
          </div>
          <Button
            variant="outline"
            size="sm"
            className="mt-3"
            aria-expanded={showTable}
            aria-controls={tableId}
            onClick={() => setShowTable((shown) => !shown)}
          >
            <ChevronRightIcon className={cn('size-4 transition-transform', showTable && 'rotate-90')} />
            {showTable ? t.hideTable : t.showTable}
          </Button>
          <DataTable id={tableId} caption={title} table={table} hidden={!showTable} />
        </>
      )}
    </Card>
  )
}
