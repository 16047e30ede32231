import { params } from '@nanostores/i18n'
import { i18n } from '@/client/lib/i18n'

export const paletteMessages = i18n('palette', {
  title: 'Command palette',
  placeholder: 'Type a command or search...',
  empty: 'No results found.',
  pages: 'Pages',
  preferences: 'Preferences',
  yourPages: 'Your pages',
  dashboard: 'Dashboard',
  assessment: 'Self-assessment',
  practice: 'Practice',
  decks: 'Your decks',
  account: 'Account',
  levels: 'Levels',
  allLevels: 'All language levels',
  newLevel: 'New level',
  loadingLevels: 'Loading levels…',
  people: 'People',
  allPeople: 'All people',
  searchingPeople: 'Searching people…',
  switchTheme: params<{ mode: string }>('Colour mode: {mode}'),
  switchLanguage: params<{ language: string }>('Language: {language}'),
})
