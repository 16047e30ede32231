// The README's screenshots (scripts/screenshots.mjs takes them; tests/unit/screenshots.test.ts checks
// that each is there and shown): the main pages, each as the user who sees it.

export const SCREENSHOT_MODES = ['light', 'dark']

export const SCREENSHOTS = [
  { name: 'home', path: '/', as: 'visitor', title: 'Home' },
  { name: 'login', path: '/login', as: 'visitor', title: 'Sign in' },
  { name: 'dashboard', path: '/dashboard', as: 'learner', title: 'Dashboard' },
  { name: 'practice', path: '/practice', as: 'learner', title: 'Practice' },
  { name: 'admin-levels', path: '/admin/language-levels', as: 'admin', title: 'Admin: language levels' },
  { name: 'level', path: '/admin/language-levels/{id}', as: 'admin', title: 'Admin: one level' },
]

/** Every route of docs/product.md §3, for looking over the app (`--all`); not kept in the repository. */
export const ALL_PAGES = [
  ...SCREENSHOTS,
  { name: 'about', path: '/about', as: 'visitor' },
  { name: 'register', path: '/register', as: 'visitor' },
  { name: 'confirm', path: '/confirm', as: 'visitor' },
  { name: 'reminders-stop', path: '/reminders/unsubscribe?token=not-a-token', as: 'visitor' },
  { name: 'not-found', path: '/no-such-page', as: 'visitor', status: 404 },
  { name: 'account', path: '/account', as: 'learner' },
  { name: 'assessment', path: '/assessment', as: 'learner' },
  { name: 'decks', path: '/decks', as: 'learner' },
  { name: 'deck', path: '/decks/{id}', as: 'learner' },
  { name: 'progress', path: '/progress', as: 'learner' },
  { name: 'admin-overview', path: '/admin', as: 'admin' },
  { name: 'admin-people', path: '/admin/users', as: 'admin' },
  { name: 'admin-can-do', path: '/admin/can-do', as: 'admin' },
  { name: 'create', path: '/create', as: 'admin' },
  { name: 'admin-create', path: '/admin/language-levels/create', as: 'admin' },
  { name: 'create-as-learner', path: '/admin/language-levels/create', as: 'learner' },
  { name: 'forbidden', path: '/admin/language-levels', as: 'learner' },
  { name: 'fetching', path: '/fetching', as: 'visitor' },
  { name: 'fetching-post', path: '/fetching-post', as: 'visitor' },
  { name: 'shared-state', path: '/shared-state-home', as: 'visitor' },
]
