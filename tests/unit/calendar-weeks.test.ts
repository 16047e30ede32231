import { describe, expect, it } from 'vitest'
import { CALENDAR_DAYS } from '@/shared/practice'
import { addDays } from '@/shared/practice-days'
import {
  type CalendarDay,
  calendarTotals,
  calendarWeeks,
  dayLevel,
  lastWeeks,
  monthStarts,
  weekdayOf,
} from '@/client/features/dashboard/calendar-weeks'

/** The API's calendar: `length` days ending `today`, oldest first. */
function days(today: string, length = CALENDAR_DAYS, reviews: (index: number) => number = () => 0): CalendarDay[] {
  return Array.from({ length }, (_, index) => {
    const count = reviews(index)
    return { date: addDays(today, index - length + 1), reviews: count, goalMet: count >= 20 }
  })
}

describe('the calendar of practice, laid out by week', () => {
  it('knows the weekday of a date, Monday first, whatever the time zone', () => {
    expect(weekdayOf('2026-11-23')).toBe(0) // a Monday
    expect(weekdayOf('2026-11-27')).toBe(4)
    expect(weekdayOf('2026-11-29')).toBe(6)
    expect(weekdayOf('2024-02-29')).toBe(3)
  })

  it('puts 84 days ending on a Sunday in 12 full weeks, Monday to Sunday', () => {
    const weeks = calendarWeeks(days('2026-11-29'))
    expect(weeks).toHaveLength(12)
    expect(weeks.every((week) => week.days.length === 7 && week.days.every((day) => day !== null))).toBe(true)
    expect(weeks[0]?.monday).toBe('2026-09-07')
    expect(weeks[0]?.days[0]?.date).toBe('2026-09-07')
    expect(weeks.at(-1)?.days[6]?.date).toBe('2026-11-29')
  })

  it('leaves the places before the first day and after today empty: 13 columns otherwise', () => {
    // Friday 27 November: the first day is a Saturday, 5 September.
    const weeks = calendarWeeks(days('2026-11-27'))
    expect(weeks).toHaveLength(13)
    expect(weeks[0]?.monday).toBe('2026-08-31')
    expect(weeks[0]?.days.map((day) => day?.date ?? null)).toEqual([null, null, null, null, null, '2026-09-05', '2026-09-06'])
    expect(weeks.at(-1)?.days.map((day) => day?.date ?? null)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      null,
      null,
    ])
    // Every day in order, each once, each in its weekday's row.
    const laid = weeks.flatMap((week) => week.days.filter((day) => day !== null))
    expect(laid.map((day) => day.date)).toEqual(days('2026-11-27').map((day) => day.date))
    weeks.forEach((week) => week.days.forEach((day, row) => day && expect(weekdayOf(day.date)).toBe(row)))
  })

  it('crosses a year and a leap day', () => {
    const weeks = calendarWeeks(days('2028-03-01', 14))
    const laid = weeks.flatMap((week) => week.days.filter((day) => day !== null).map((day) => day.date))
    expect(laid).toContain('2028-02-29')
    expect(calendarWeeks(days('2027-01-03', 10)).at(-1)?.days[6]?.date).toBe('2027-01-03')
    expect(calendarWeeks([])).toEqual([])
  })

  it('names each month over the first column that begins in it, never two names side by side', () => {
    // From Saturday 5 September: September's column is followed by others of September.
    const months = monthStarts(calendarWeeks(days('2026-11-27')))
    expect(months.map((month) => month.date.slice(0, 7))).toEqual(['2026-09', '2026-10', '2026-11'])
    expect(months[1]).toEqual({ week: 5, date: '2026-10-05' })
    // Starting on the 30th: the first column's month would sit against the next one's name.
    const late = monthStarts(calendarWeeks(days('2026-12-20', 21)))
    expect(late.map((month) => month.date.slice(0, 7))).toEqual(['2026-12'])
  })

  it('colours a day by its reviews and goal, and sums the calendar up', () => {
    const calendar = days('2026-11-27', CALENDAR_DAYS, (index) => [0, 5, 25][index % 3] ?? 0)
    expect(calendar.slice(0, 3).map(dayLevel)).toEqual(['none', 'some', 'met'])
    expect(calendarTotals(calendar)).toEqual({ practised: 56, met: 28, reviews: 28 * 30 })
  })
})

describe('the 12 weeks the dashboard draws', () => {
  it('are this week and the 11 before it, each from its Monday: 12 columns, whatever the weekday of today', () => {
    for (const today of ['2026-11-23', '2026-11-27', '2026-11-28', '2026-11-29']) {
      const shown = lastWeeks(days(today), 12)
      const weeks = calendarWeeks(shown)
      expect(weeks, today).toHaveLength(12)
      expect(shown[0]?.date, today).toBe(weeks[0]?.monday)
      expect(weekdayOf(shown[0]?.date ?? ''), today).toBe(0)
      expect(shown.at(-1)?.date).toBe(today)
    }
    // Saturday 28 November: from Monday 7 September, 83 days of the 84 sent.
    expect(lastWeeks(days('2026-11-28'), 12)).toHaveLength(83)
    expect(lastWeeks([], 12)).toEqual([])
  })
})
