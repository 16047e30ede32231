/**
 * The learner's days, streak and calendar: pure rules, shared by the server (which decides) and
 * the client (which may show them offline). Dates are `YYYY-MM-DD` strings of the learner's
 * calendar; docs/decisions/0019-practice.md states the rules in prose.
 */

import { LruCache } from './lru'

/**
 * The formatters of the zones in use: at most 1000 (the time-zone database has ~600 names), since
 * a zone's name comes from outside (stored names are canonical, but an older row may hold any
 * spelling).
 */
const formatters = new LruCache<string, Intl.DateTimeFormat>(1000)

const makeFormatter = (timeZone: string) =>
  // en-CA writes dates as YYYY-MM-DD; the Gregorian calendar and Latin digits whatever the host.
  new Intl.DateTimeFormat('en-CA', {
    timeZone,
    calendar: 'gregory',
    numberingSystem: 'latn',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })

/**
 * The runtime's name of the time zone `value` names (IANA names, `UTC`; any case, and a link such as
 * `US/Eastern` named by its zone), or undefined when it names none. What is stored: 2^28 spellings
 * of one zone are one name.
 */
export function canonicalTimeZone(value: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return undefined
  try {
    // Not kept: one spelling of each of many zones sent once must not be one formatter each.
    return new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone
  } catch {
    return undefined
  }
}

/** Whether `value` names a time zone this runtime knows (IANA names, `UTC`). */
export const isTimeZone = (value: string): boolean => canonicalTimeZone(value) !== undefined

/**
 * Whether two names are of one zone, by this runtime's names: a browser may say `Europe/Kyiv` where
 * the server's runtime stored `Europe/Kiev`.
 */
export const sameTimeZone = (a: string, b: string): boolean => a === b || canonicalTimeZone(a) === canonicalTimeZone(b)

const isoDate = /^\d{4}-\d{2}-\d{2}$/

/** The date it is at `at` in `timeZone`. */
export function dayIn(timeZone: string, at: Date): string {
  const formatter = formatters.get(timeZone, makeFormatter)
  // en-CA's own format is the date as stored, made without the parts' arrays (an import replays
  // hundreds of thousands of reviews); the parts when a runtime's data writes it otherwise.
  const formatted = formatter.format(at)
  if (isoDate.test(formatted)) return formatted
  const parts = formatter.formatToParts(at)
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return `${part('year')}-${part('month')}-${part('day')}`
}

/** The date `days` after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10)
}

/** Days from `from` to `to` (negative when `to` is earlier). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}

const MINUTE_MS = 60_000

/**
 * The first instant (to the minute: time zones change offsets on whole minutes) at which it is
 * the next day in `timeZone`: where the learner's day containing `at` ends. Searched, not computed
 * from an offset, so that a day of 23 or 25 hours (daylight saving) or one whose midnight does not
 * exist (a change at 00:00) ends where the zone says.
 */
export function endOfDay(timeZone: string, at: Date): Date {
  const today = dayIn(timeZone, at)
  let low = Math.floor(at.getTime() / MINUTE_MS)
  // No day lasts 27 hours; every zone's day ends within that.
  let high = low + 27 * 60
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2)
    if (dayIn(timeZone, new Date(middle * MINUTE_MS)) > today) high = middle
    else low = middle
  }
  return new Date(high * MINUTE_MS)
}

/**
 * The reviews of one of the learner's days, and its goal: the one in force when the day ended (at
 * its last review, or a change made later the same day), never one changed on a later day.
 */
export interface DayReviews {
  date: string
  reviews: number
  goal: number
}

export interface StreakInput {
  days: DayReviews[]
  today: string
  /** Dates a time-zone change left behind (`bridgedByZoneChange`): they join, never break. */
  bridged: readonly string[]
}

export interface Streaks {
  /** Met days in the run that ends yesterday or later: today unmet does not break it yet. */
  current: number
  longest: number
}

/**
 * The dates whose goal was met, each by its own goal: today's too, so that a day is judged the same
 * before and after it ends, and a date that comes again (a move west) by the goal it had.
 */
function metDates(input: StreakInput): Set<string> {
  return new Set(input.days.filter((day) => day.reviews > 0 && day.reviews >= day.goal).map((day) => day.date))
}

/**
 * The streak: consecutive dates each with the goal met or bridged; its length counts the met ones.
 * The current streak is the run through the latest such date, when that is yesterday or later
 * (a date after today comes from a move to a zone where it is earlier: it counts).
 */
export function streaks(input: StreakInput): Streaks {
  const met = metDates(input)
  const joined = [...new Set([...met, ...input.bridged])].sort()
  let longest = 0
  let run = 0
  let previous: string | undefined
  for (const date of joined) {
    if (previous === undefined || daysBetween(previous, date) !== 1) run = 0
    if (met.has(date)) run++
    longest = Math.max(longest, run)
    previous = date
  }
  const last = joined.at(-1)
  const current = last !== undefined && daysBetween(input.today, last) >= -1 ? run : 0
  return { current, longest }
}

/** How often a time-zone change may bridge dates: once in this many days. */
const BRIDGE_EVERY_DAYS = 7

/**
 * The dates a change of time zone at `at`, from `from` to `to`, leaves behind, to add to the
 * bridged ones: when the date jumps forward (a move east across midnight), the old zone's date and
 * any date skipped, so that the move itself never costs the streak. A move west repeats a date,
 * whose reviews all count for it once: nothing to bridge. At most once in BRIDGE_EVERY_DAYS days,
 * so that switching zones back and forth cannot stand in for practice.
 */
export function bridgedByZoneChange(from: string, to: string, at: Date, bridged: readonly string[]): string[] {
  const left = dayIn(from, at)
  const arrived = dayIn(to, at)
  if (arrived <= left) return []
  const latest = [...bridged].sort().at(-1)
  if (latest !== undefined && daysBetween(latest, arrived) <= BRIDGE_EVERY_DAYS) return []
  const dates: string[] = []
  for (let date = left; date < arrived; date = addDays(date, 1)) dates.push(date)
  return dates
}

/** The `length` days ending today, oldest first: reviews given and whether the goal was met. */
export function calendar(input: StreakInput, length: number): { date: string; reviews: number; goalMet: boolean }[] {
  const met = metDates(input)
  const reviews = new Map(input.days.map((day) => [day.date, day.reviews]))
  return Array.from({ length }, (_, index) => {
    const date = addDays(input.today, index - length + 1)
    return { date, reviews: reviews.get(date) ?? 0, goalMet: met.has(date) }
  })
}
