import { useStore } from '@nanostores/react'
import { useMemo } from 'react'
import { addDays } from '@/shared/practice-days'
import { type ChartTable, TableAlternative } from '@/client/components/table-alternative'
import { cn } from '@/client/lib/cn'
import { format, locale } from '@/client/lib/i18n'
import { type CalendarDay, type DayLevel, calendarTotals, calendarWeeks, dayLevel, lastWeeks, monthStarts } from './calendar-weeks'
import { dashboardMessages } from './messages'

/** One colour class per level (`cn` does not merge two). */
const levelClass: Record<DayLevel, string> = {
  none: 'bg-muted-foreground/20',
  some: 'bg-primary/50',
  met: 'bg-primary',
}

/** The weeks drawn: this one and the 11 before it (the API sends 84 days, enough for them). */
const CALENDAR_WEEKS = 12

/** A calendar date (YYYY-MM-DD) as a Date at its UTC midnight, to format without a time zone. */
const utcDate = (date: string) => new Date(`${date}T00:00:00Z`)

/**
 * The last 12 weeks of practice, one square a day, weeks as columns (GitHub's contributions): a
 * square is grey without reviews, light with some, full when the goal was met; today is outlined.
 * The drawing is hidden from assistive technology: a sentence sums the weeks up, and a table (behind
 * "Show as table") gives each week's figures.
 */
export function PracticeCalendar({ days: sent }: { days: readonly CalendarDay[] }) {
  const t = useStore(dashboardMessages)
  const lang = useStore(locale)
  const formats = useStore(format)
  const days = useMemo(() => lastWeeks(sent, CALENDAR_WEEKS), [sent])
  const weeks = useMemo(() => calendarWeeks(days), [days])
  const totals = calendarTotals(days)
  const today = days.at(-1)?.date
  const dayName = (date: string, options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(lang, { ...options, timeZone: 'UTC' }).format(utcDate(date))
  const number = (value: number) => formats.number(value)
  // "5 Sep": the year only for a date of another year than today's.
  const shortDate = (date: string) =>
    dayName(date, { day: 'numeric', month: 'short', year: date.slice(0, 4) === today?.slice(0, 4) ? undefined : 'numeric' })
  const table: ChartTable = {
    columns: [t.weekStarting, t.daysPractised, t.daysGoalMet, t.reviews],
    rows: weeks.map((week) => {
      const inCalendar = week.days.filter((day) => day !== null)
      const sums = calendarTotals(inCalendar)
      return [
        shortDate(inCalendar[0]?.date ?? week.monday),
        number(sums.practised),
        number(sums.met),
        number(sums.reviews),
      ]
    }),
  }
  const months = monthStarts(weeks)
  // Monday, Wednesday and Friday are named, as GitHub does: all seven would crowd the squares.
  const weekdayLabels = weeks[0]?.days.map((_, index) => (index % 2 === 0 ? dayName(addDays(weeks[0]?.monday ?? '', index), { weekday: 'short' }) : ''))

  return (
    <div>
      <h3 className="text-sm font-semibold">{t.calendarTitle}</h3>
      <p className="mt-1 text-sm text-muted-foreground">
        {t.calendarSummary({
          practised: number(totals.practised),
          met: number(totals.met),
          reviews: number(totals.reviews),
        })}
      </p>
      <div aria-hidden="true" className="mt-3 overflow-x-auto">
        <div
          className="grid w-max gap-[3px] text-[0.625rem] leading-none text-muted-foreground [--cell:1rem] sm:gap-1 sm:text-xs sm:[--cell:1.25rem]"
          style={{ gridTemplateColumns: `auto repeat(${weeks.length}, var(--cell))`, gridTemplateRows: 'auto repeat(7, var(--cell))' }}
        >
          {months.map((month) => (
            <span key={month.date} className="pb-1 whitespace-nowrap" style={{ gridColumn: month.week + 2, gridRow: 1 }}>
              {dayName(month.date, { month: 'short' })}
            </span>
          ))}
          {weekdayLabels?.map((label, index) => (
            <span key={index} className="pr-1 self-center" style={{ gridColumn: 1, gridRow: index + 2 }}>
              {label}
            </span>
          ))}
          {weeks.map((week, column) =>
            week.days.map((day, row) =>
              day ? (
                <span
                  key={day.date}
                  data-date={day.date}
                  data-level={dayLevel(day)}
                  title={dayTitle(day)}
                  className={cn('rounded-[3px]', levelClass[dayLevel(day)], day.date === today && 'ring-2 ring-foreground/60')}
                  style={{ gridColumn: column + 2, gridRow: row + 2 }}
                />
              ) : null,
            ),
          )}
        </div>
      </div>
      <ul aria-hidden="true" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
        {(['none', 'some', 'met'] as const).map((level) => (
          <li key={level} className="flex items-center gap-1.5">
            <span className={cn('size-3 rounded-[3px]', levelClass[level])} />
            {level === 'none' ? t.legendNone : level === 'some' ? t.legendSome : t.legendMet}
          </li>
        ))}
      </ul>
      <TableAlternative caption={t.calendarTitle} table={table} showLabel={t.showTable} hideLabel={t.hideTable} />
    </div>
  )

  function dayTitle(day: CalendarDay): string {
    const text = t.calendarDay({ date: dayName(day.date, { dateStyle: 'medium' }), reviews: day.reviews })
    return day.goalMet ? t.calendarDayMet({ day: text }) : text
  }
}
