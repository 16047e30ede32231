import { useStore } from '@nanostores/react'
import type { ReactNode } from 'react'
import { Chart, type ChartProps } from './chart'
import { type ChartTable, TableAlternative } from './table-alternative'
import { uiMessages } from './ui/messages'

/**
 * A chart as the pages show one (docs/decisions/0020-admin-charts-svg.md): a sentence saying what
 * it shows (what a screen reader reads instead of the drawing), the drawing, and its data as a
 * table behind a button (`caption`, `showLabel`, `hideLabel`). With nothing to draw (`empty`),
 * "No data" takes their place.
 */
export function ChartFigure({
  summary,
  empty,
  chart,
  table,
  caption,
  showLabel,
  hideLabel,
}: {
  summary: ReactNode
  empty: boolean
  chart: ChartProps
  table: ChartTable
  caption: string
  showLabel: string
  hideLabel: string
}) {
  const ui = useStore(uiMessages)
  return (
    <>
      <p className="text-sm">{summary}</p>
      {empty ? (
        <p className="mt-4 rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">{ui.noData}</p>
      ) : (
        <>
          <div className="mt-4">
            <Chart {...chart} />
          </div>
          <TableAlternative caption={caption} table={table} showLabel={showLabel} hideLabel={hideLabel} />
        </>
      )}
    </>
  )
}
