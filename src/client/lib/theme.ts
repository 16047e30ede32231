import { useStore } from '@nanostores/react'
import { atom } from 'nanostores'
import { THEME_COOKIE, type ThemePreference, themePreferenceOf } from '@/shared/preferences'
import { afterStart } from './started'
import { keepChoice, readChoice } from './stored-choice'

export { type ThemePreference, themePreferences } from '@/shared/preferences'

const preference = atom<ThemePreference>(typeof window === 'undefined' ? 'system' : themePreferenceOf(readChoice(THEME_COOKIE)))

/** The preference in force. */
export const themePreference = (): ThemePreference => preference.get()

if (typeof window !== 'undefined') {
  const darkQuery = matchMedia('(prefers-color-scheme: dark)')
  // As the inline script of index.html does before the first paint.
  const apply = () => {
    const mode = preference.get()
    const dark = mode === 'dark' || (mode === 'system' && darkQuery.matches)
    const root = document.documentElement
    root.classList.toggle('dark', dark)
    root.classList.toggle('light', !dark)
    root.style.colorScheme = dark ? 'dark' : 'light'
  }
  preference.subscribe(apply)
  darkQuery.addEventListener('change', apply)
  // Another tab changed the mode: followed once this page has started (lib/started.ts).
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_COOKIE) afterStart(() => preference.set(themePreferenceOf(readChoice(THEME_COOKIE))))
  })
}

export function setTheme(mode: ThemePreference) {
  keepChoice(THEME_COOKIE, mode)
  preference.set(mode)
}

/** The server's render of one page: the mode of the request's cookie, nothing kept. */
export function renderWithTheme(mode: ThemePreference) {
  preference.set(mode)
}

export function useTheme(): ThemePreference {
  return useStore(preference)
}
