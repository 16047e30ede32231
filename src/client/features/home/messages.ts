import { i18n } from '@/client/lib/i18n'

export const homeMessages = i18n('home', {
  title: 'Learn a language level by level',
  lead: 'Lingua follows the Common European Framework of Reference (CEFR): know where you stand, set the level you want to reach, and track your way from A1 to C2.',
  getStarted: 'Get started',
  dashboard: 'Dashboard',
  learnMore: 'How levels work',
  featuresTitle: 'Why Lingua',
  levelsTitle: 'Clear levels',
  levelsBody:
    'Six CEFR levels, from first words (A1) to near-native mastery (C2), each described in plain words.',
  progressTitle: 'Your progress',
  progressBody:
    'Choose the language you learn, mark your current level and your target, and see how far you have come.',
  privacyTitle: 'Your account, safe',
  levelListTitle: 'The levels',
  levelListLead: 'What each level means, from the first words to mastery.',
  levelListLoading: 'Loading the levels…',
  levelListError: 'The levels could not be loaded. Check your connection and try again.',
  levelListEmptyHint: 'The levels will show here once an administrator adds them.',
  levelListUnavailable: 'The levels could not be loaded: the service is temporarily unavailable. Try again in a moment.',
  retry: 'Try again',
  privacyBody:
    'Email confirmation, sign-in with a one-time code and two-factor authentication keep your account yours.',
})
