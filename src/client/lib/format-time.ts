/** Above this, a time is given as a date rather than "3 days ago". */
const RELATIVE_LIMIT_DAYS = 7

const relativeSteps: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', RELATIVE_LIMIT_DAYS],
]

/**
 * How long ago (or how soon) `date` is: "just now"/"сейчас", "5 minutes ago"/"5 минут назад",
 * "yesterday"/"вчера"; a week or more away, the date and time themselves.
 */
export function formatRelativeTime(language: string, date: Date | number, now: Date | number = Date.now()): string {
  const time = typeof date === 'number' ? date : date.getTime()
  const reference = typeof now === 'number' ? now : now.getTime()
  let amount = (time - reference) / 1000
  const relative = new Intl.RelativeTimeFormat(language, { numeric: 'auto' })
  // Under a minute reads as "now": seconds would tick on a list nobody re-renders every second.
  if (Math.abs(amount) < 60) return relative.format(0, 'second')
  for (const [unit, size] of relativeSteps) {
    if (Math.abs(amount) < size) return relative.format(Math.trunc(amount), unit)
    amount /= size
  }
  return formatDateTime(language, time)
}

/** A date with its time, e.g. "21 Nov 2026, 06:49" / "21 нояб. 2026 г., 06:49". */
export function formatDateTime(
  language: string,
  date: Date | number,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
): string {
  return new Intl.DateTimeFormat(language, options).format(date)
}
