import { strings, transform } from '@nanostores/i18n'

/**
 * Numbers and plurals in a given interface language, which every page's messages use (the start
 * chunk). Pure functions of the language, so the components (through `format` and `plural` in
 * i18n.ts) and the tests use the same ones. Times are in format-time.ts, language names in
 * language-names.ts: only some pages need them.
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
