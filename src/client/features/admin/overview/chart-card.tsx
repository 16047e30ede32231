import { useStore } from '@nanostores/react'
import type { ReactNode } from 'react'
import type { ChartProps } from '@/client/components/chart'
import { ChartFigure } from '@/client/components/chart-figure'
import type { ChartTable } from '@/client/components/table-alternative'
import { Card } from '@/client/components/ui/card'
import { overviewMessages } from './messages'

/** One chart of the overview, in a card of its title (components/chart-figure.tsx). */
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
  return (
    <Card title={title} lead={lead} className={className}>
      <ChartFigure summary={summary} empty={empty} chart={chart} table={table} caption={title} showLabel={t.showTable} hideLabel={t.hideTable} />
    </Card>
  )
}
