import { params } from '@nanostores/i18n'
import { i18n } from '@/client/lib/i18n'

export const layoutMessages = i18n('layout', {
  mainNavigation: 'Main',
  demosNavigation: 'Demos',
  home: 'Home',
  about: 'About',
  fetching: 'Fetching',
  fetchingPost: 'Posting a form',
  sharedState: 'Shared state',
  signIn: 'Sign in',
  dashboard: 'Dashboard',
  account: 'Account',
  languageLevels: 'Language levels',
  signOut: 'Sign out',
  register: 'Register',
  menu: 'Menu',
  skipToContent: 'Skip to content',
  search: 'Search',
  /** The tooltip of the search button: its name and the keys that open the palette. */
  searchWithShortcut: params<{ shortcut: string }>('Search ({shortcut})'),
  colourMode: params<{ mode: string }>('Colour mode: {mode}'),
  light: 'Light',
  dark: 'Dark',
  system: 'System',
  language: 'Language',
  rights: params<{ year: string }>('© {year} Lingua'),
  version: params<{ version: string }>('Version {version}'),
})

/** Language names are written in their own language, whatever the interface language. */
export const languageNames = { en: 'English', ru: 'Русский' } as const
