import { useStore } from '@nanostores/react'
import { atom } from 'nanostores'

export const themePreferences = ['light', 'dark', 'system'] as const
export type ThemePreference = (typeof themePreferences)[number]

/** Read by the inline script of index.html too: keep the key and values in step with it. */
const STORAGE_KEY = 'lingua.theme'

function parse(value: string | null): ThemePreference {
  return value === 'light' || value === 'dark' ? value : 'system'
}

function readStored(): ThemePreference {
  try {
    return parse(localStorage.getItem(STORAGE_KEY))
  } catch {
    return 'system'
  }
}

const preference = atom<ThemePreference>(
  typeof window === 'undefined' ? 'system' : readStored(),
)

if (typeof window !== 'undefined') {
  const darkQuery = matchMedia('(prefers-color-scheme: dark)')
  const apply = () => {
    const mode = preference.get()
    const dark = mode === 'dark' || (mode === 'system' && darkQuery.matches)
    const root = document.documentElement
    root.classList.toggle('dark', dark)
    root.style.colorScheme = dark ? 'dark' : 'light'
  }
  preference.subscribe(apply)
  darkQuery.addEventListener('change', apply)
  // Another tab changed the mode.
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEY) preference.set(parse(event.newValue))
  })
}

export function setTheme(mode: ThemePreference) {
  try {
    localStorage.setItem(STORAGE_KEY, mode)
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  preference.set(mode)
}

export function useTheme(): ThemePreference {
  return useStore(preference)
}
