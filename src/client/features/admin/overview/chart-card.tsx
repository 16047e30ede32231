import { useStore } from '@nanostores/react'
import type { ReactNode } from 'react'
import { type ChartTable, TableAlternative } from '@/client/components/table-alternative'
import { Card } from '@/client/components/ui/card'
import { uiMessages } from '@/client/components/ui/messages'
import { Chart, type ChartProps } from './chart'
import { overviewMessages } from './messages'

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
          <TableAlternative caption={title} table={table} showLabel={t.showTable} hideLabel={t.hideTable} />
        </>
      )}
    </Card>
  )
}
