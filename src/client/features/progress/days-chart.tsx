import { useStore } from '@nanostores/react'
import type { ProgressDay } from '@/shared/progress'
import { ChartFigure } from '@/client/components/chart-figure'
import { format } from '@/client/lib/i18n'
import { progressMessages } from './messages'

/** A calendar date (YYYY-MM-DD) as a Date at its UTC midnight, to format without a time zone. */
const utcDate = (date: string) => new Date(`${date}T00:00:00Z`)

/** A count a day as bars (components/chart-figure.tsx), the days as a table behind "Show as table". */
export function DaysChart({
  title,
  summary,
  empty,
  days,
  column,
}: {
  /** The table's caption. */
  title: string
  summary: string
  empty: boolean
  days: readonly ProgressDay[]
  /** The heading of the counts' column. */
  column: string
}) {
  const t = useStore(progressMessages)
  const formats = useStore(format)
  const number = (value: number) => formats.number(value)
  return (
    <ChartFigure
      summary={summary}
      empty={empty}
      chart={{
        kind: 'bars',
        labels: days.map((day) => formats.time(utcDate(day.date), { day: 'numeric', month: 'short', timeZone: 'UTC' })),
        values: days.map((day) => day.count),
        formatNumber: number,
      }}
      table={{
        columns: [t.date, column],
        rows: days.map((day) => [
          formats.time(utcDate(day.date), { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }),
          number(day.count),
        ]),
      }}
      caption={title}
      showLabel={t.showTable}
      hideLabel={t.hideTable}
    />
  )
}
