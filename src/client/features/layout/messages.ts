import { params } from '@nanostores/i18n'
import { i18n } from '@/client/lib/i18n'

export const layoutMessages = i18n('layout', {
  mainNavigation: 'Main',
  demosNavigation: 'Demos',
  dashboard: 'Dashboard',
  assessment: 'Self-assessment',
  practice: 'Practice',
  decks: 'Decks',
  account: 'Account',
  administration: 'Administration',
  signOut: 'Sign out',
  menu: 'Menu',
  skipToContent: 'Skip to content',
  search: 'Search',
  /** The tooltip of the search button: its name and the keys that open the palette. */
  searchWithShortcut: params<{ shortcut: string }>('Search ({shortcut})'),
  colourMode: params<{ mode: string }>('Colour mode: {mode}'),
  language: 'Language',
  rights: params<{ year: string }>('© {year} Lingua'),
  version: params<{ version: string }>('Version {version}'),
})

