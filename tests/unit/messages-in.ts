import { type Components, createI18n } from '@nanostores/i18n'
import { atom } from 'nanostores'
import ru from '@/client/locales/ru'

/** A messages store of the app; development builds keep its name and English base strings. */
interface Store<T> {
  get(): T
}

/**
 * The strings of one of the app's messages stores in a language, through @nanostores/i18n itself
 * (its own i18n instance, so the app's language stays as it is): what a component would show.
 */
export function messagesIn<T>(language: 'en' | 'ru', store: Store<T>): T {
  const { component, base } = store as unknown as { component: string; base: Record<string, unknown> }
  const i18n = createI18n(atom(language), {
    baseLocale: 'en',
    get: () => Promise.resolve({}),
    cache: { ru } as unknown as Record<string, Components>,
  })
  return (i18n(component, base as never) as unknown as Store<T>).get()
}
