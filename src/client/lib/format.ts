import { strings, transform } from '@nanostores/i18n'
import { LEARNABLE_LANGUAGES } from '@/shared/profile'

/**
 * Numbers, plurals and times in a given interface language. Pure functions of the language, so
 * the components (through `format` and `plural` in i18n.ts) and the tests use the same ones.
 */

/** The wording of a message for each plural category the language has; `other` is the fallback. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }

const pluralRules = new Map<string, Intl.PluralRules>()

/** The form of `forms` that the language's plural rules pick for `value` (1 учащийся, 2 учащихся). */
export function pluralForm(language: string, value: number, forms: PluralForms): string {
  let rules = pluralRules.get(language)
  if (!rules) {
    rules = new Intl.PluralRules(language)
    pluralRules.set(language, rules)
  }
  return forms[rules.select(value)] ?? forms.other
}

/** A language's name in the interface language ("French", "французский"), or its code when unknown. */
export function languageName(language: string, code: string): string {
  return new Intl.DisplayNames([language], { type: 'language' }).of(code) ?? code
}

/**
 * The learnable languages by name in the interface language, in its alphabetical order, for a
 * select. Russian names come in lower case ("французский"): a list item starts with a capital.
 */
export function learnableLanguageOptions(language: string): { code: (typeof LEARNABLE_LANGUAGES)[number]; name: string }[] {
  const capitalized = (name: string) => name.charAt(0).toLocaleUpperCase(language) + name.slice(1)
  return LEARNABLE_LANGUAGES.map((code) => ({ code, name: capitalized(languageName(language, code)) })).sort((one, other) =>
    one.name.localeCompare(other.name, language),
  )
}

export function formatNumber(language: string, value: number): string {
  return new Intl.NumberFormat(language).format(value)
}

/**
 * A message in plural forms, chosen by the number in one of its parameters: in the base strings
 * `plural<{ count: number }>('count', { one: '{count} learner', other: '{count} learners' })`,
 * called as `t.key({ count: 5 })`. The number is written with the language's digit grouping; the
 * other parameters are put in as they are. The translation gives the forms its language needs
 * (Russian: one, few, many, other).
 */
export function plural<Values extends Record<string, number | string>>(
  by: keyof Values & string,
  forms: PluralForms,
): (values: Values) => string {
  const message = transform((language: string, translation: PluralForms | string, values: Values) => {
    const value = Number(values[by])
    const chosen = typeof translation === 'string' ? translation : pluralForm(language, value, translation)
    return strings(chosen, (text) =>
      text.replace(/{(\w+)}/g, (placeholder, name: string) => {
        if (!(name in values)) return placeholder
        return name === by && Number.isFinite(value) ? formatNumber(language, value) : String(values[name])
      }),
    )
  })
  // Typed as the function the component calls; at run time it is the { input, transform } pair
  // that `i18n()` reads, as with `params` and `count`.
  return message(forms)
}

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
