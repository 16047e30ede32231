import { intervalLabel } from '@/shared/practice'

const formats = new Map<string, Intl.NumberFormat>()

/** "10 min", "2 hr", "3 days", "4 months", "1.5 years" (ru: "10 мин", "3 дня") for a span in seconds. */
export function formatInterval(language: string, seconds: number): string {
  const { value, unit } = intervalLabel(seconds)
  const key = `${language} ${unit}`
  let format = formats.get(key)
  if (!format) {
    const short = unit === 'minute' || unit === 'hour'
    format = new Intl.NumberFormat(language, {
      style: 'unit',
      unit,
      unitDisplay: short ? 'short' : 'long',
      maximumFractionDigits: 1,
    })
    formats.set(key, format)
  }
  return format.format(value)
}
