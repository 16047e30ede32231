import type { MailLocale } from '@/server/mail/types'

type DurationUnit = 'minute' | 'hour' | 'day'
type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }

// Russian after «через» takes the accusative: 1/21 минуту, 2–4/22 минуты, 5–20/25 минут.
const unitNames: Record<MailLocale, Record<DurationUnit, PluralForms>> = {
  en: {
    minute: { one: 'minute', other: 'minutes' },
    hour: { one: 'hour', other: 'hours' },
    day: { one: 'day', other: 'days' },
  },
  ru: {
    minute: { one: 'минуту', few: 'минуты', many: 'минут', other: 'минуты' },
    hour: { one: 'час', few: 'часа', many: 'часов', other: 'часа' },
    day: { one: 'день', few: 'дня', many: 'дней', other: 'дня' },
  },
}

const pluralRules = new Map<MailLocale, Intl.PluralRules>()
function pluralForm(locale: MailLocale, value: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(locale)
  if (!rules) {
    rules = new Intl.PluralRules(locale)
    pluralRules.set(locale, rules)
  }
  return rules.select(value)
}

/**
 * A validity period in words: "60 minutes", "2 hours", "3 days" / "21 минуту", "2 часа".
 * Minutes up to two hours (so the usual one-hour link reads "60 minutes"), then whole hours, then
 * whole days from two days on.
 */
export function formatDuration(minutes: number, locale: MailLocale): string {
  if (!Number.isInteger(minutes) || minutes < 1) {
    throw new RangeError(`expiresInMinutes must be a positive whole number, got ${minutes}`)
  }
  let value = minutes
  let unit: DurationUnit = 'minute'
  if (minutes >= 2 * 1440 && minutes % 1440 === 0) {
    value = minutes / 1440
    unit = 'day'
  } else if (minutes >= 120 && minutes % 60 === 0) {
    value = minutes / 60
    unit = 'hour'
  }
  const forms = unitNames[locale][unit]
  const name = forms[pluralForm(locale, value)] ?? forms.other
  return `${new Intl.NumberFormat(locale).format(value)} ${name}`
}
