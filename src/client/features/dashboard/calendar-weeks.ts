import type { PracticeToday } from '@/shared/practice'
import { addDays } from '@/shared/practice-days'

/**
 * The calendar of practice laid out as GitHub lays out contributions: one column per week, Monday
 * at the top (weeks start on Monday, as the app's other weekly figures do), days in order down
 * each column. The first column starts on the Monday on or before the first day and the last ends
 * on the Sunday on or after today; the days outside the calendar are `null` (nothing drawn).
 */
export type CalendarDay = PracticeToday['calendar'][number]

/** How a day is coloured: nothing, some reviews, or the goal met. */
export type DayLevel = 'none' | 'some' | 'met'

export interface CalendarWeek {
  /** The week's Monday (YYYY-MM-DD), even when it lies before the calendar's first day. */
  monday: string
  /** Seven places, Monday to Sunday. */
  days: (CalendarDay | null)[]
}

/** 0 for Monday … 6 for Sunday, of a YYYY-MM-DD date (a calendar date: no time zone). */
export function weekdayOf(date: string): number {
  return (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7
}

/** The days (oldest first, consecutive, as the API answers them) as weeks, oldest week first. */
export function calendarWeeks(days: readonly CalendarDay[]): CalendarWeek[] {
  const first = days[0]
  if (!first) return []
  const lead = weekdayOf(first.date)
  const places: (CalendarDay | null)[] = [...Array.from({ length: lead }, () => null), ...days]
  while (places.length % 7 !== 0) places.push(null)
  const firstMonday = addDays(first.date, -lead)
  return Array.from({ length: places.length / 7 }, (_, week) => ({
    monday: addDays(firstMonday, week * 7),
    days: places.slice(week * 7, week * 7 + 7),
  }))
}

/**
 * The days of the last `count` weeks, Monday to Sunday, the last one the week of the last day
 * (today): the calendar's 12 columns, each a whole week from its Monday, not 84 days that start
 * mid-week and take a 13th column.
 */
export function lastWeeks(days: readonly CalendarDay[], count: number): CalendarDay[] {
  const last = days.at(-1)
  if (!last) return []
  const from = addDays(last.date, -weekdayOf(last.date) - 7 * (count - 1))
  return days.filter((day) => day.date >= from)
}

export function dayLevel(day: CalendarDay): DayLevel {
  if (day.goalMet) return 'met'
  return day.reviews > 0 ? 'some' : 'none'
}

/** What the calendar's text alternative says: days practised, days the goal was met, reviews. */
export function calendarTotals(days: readonly CalendarDay[]): { practised: number; met: number; reviews: number } {
  return {
    practised: days.filter((day) => day.reviews > 0).length,
    met: days.filter((day) => day.goalMet).length,
    reviews: days.reduce((sum, day) => sum + day.reviews, 0),
  }
}

/**
 * Where the month names go above the columns: at each column whose first day begins another month
 * than the column before (GitHub's rule), as the week's index and that day. A first column whose
 * month is named again within two columns is left unnamed, so that two names do not run together.
 */
export function monthStarts(weeks: readonly CalendarWeek[]): { week: number; date: string }[] {
  const starts: { week: number; date: string }[] = []
  weeks.forEach((week, index) => {
    const first = week.days.find((day) => day !== null)
    if (first && first.date.slice(0, 7) !== starts.at(-1)?.date.slice(0, 7)) starts.push({ week: index, date: first.date })
  })
  const [head, next] = starts
  if (head && next && next.week - head.week < 3) starts.shift()
  return starts
}
