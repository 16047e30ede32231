import { params } from '@nanostores/i18n'
import { plural } from './format'
import { i18n } from './i18n'

/** Shown in place of the app when it cannot start (configuration or strings failed to load). */
export const appMessages = i18n('app', {
  startFailed: params<{ reason: string }>('Lingua could not start: {reason}'),
})

/** What the user reads when a request fails. */
export const apiErrorMessages = i18n('apiErrors', {
  network: 'Cannot reach the server. Check your connection and try again.',
  serviceUnavailable: 'The service is temporarily unavailable. Try again in a moment.',
  rateLimited: plural<{ seconds: string }>('seconds', {
    one: 'Too many attempts. Try again in {seconds} second.',
    other: 'Too many attempts. Try again in {seconds} seconds.',
  }),
  rateLimitedMinutes: plural<{ minutes: string }>('minutes', {
    one: 'Too many attempts. Try again in {minutes} minute.',
    other: 'Too many attempts. Try again in {minutes} minutes.',
  }),
  rateLimitedNoTime: 'Too many attempts. Try again later.',
  emailRecentlySent: plural<{ seconds: string }>('seconds', {
    one: 'We emailed this address moments ago. You can ask again in {seconds} second.',
    other: 'We emailed this address moments ago. You can ask again in {seconds} seconds.',
  }),
  emailRecentlySentNoTime: 'We emailed this address moments ago. You can ask again in a minute.',
  sessionMissing: 'Your session has ended. Sign in again.',
  invalidCredentials: 'Wrong email or password.',
  emailNotVerified: 'Confirm your email address first: follow the link we sent you.',
  accountDisabled: 'This account is disabled',
  weakPassword: 'This password is too easy to guess. Choose a longer or less common one.',
  wrongPassword: 'Wrong password.',
  invalidToken: 'This link or code is invalid or has expired. Ask for a new one.',
  forbidden: 'You are not allowed to do this.',
  notFound: 'Not found.',
  methodNotAllowed: 'The server does not accept this action here. Reload the page and try again.',
  conflict: 'Someone else changed this in the meantime.',
  decksFull: 'You have 100 decks, the most a learner may hold: delete one to make another.',
  cardsFull: 'Your decks are full: at most 50,000 cards',
  newWordNotAllowed: 'This new word was not counted: today’s new words were already started, or it is not of your current level.',
  validation: 'Check the highlighted fields.',
  tooLarge: 'What you sent is too large.',
  badRequest: 'The server could not accept this request. Reload the page and try again.',
  unsupportedMediaType: 'The server could not read what was sent. Reload the page and try again.',
  invalidImage: 'This picture could not be read: the file may be damaged or incomplete.',
  imageTooLarge: 'This picture has too many pixels: at most 40 megapixels.',
  server: 'Something went wrong on our side. Try again later.',
  unknown: 'An unknown error occurred.',
  retry: 'Try again',
})

/** Form validation messages shown next to fields. */
export const validationMessages = i18n('validation', {
  required: 'Required',
  tooShort: plural<{ min: number }>('min', { one: 'At least {min} character', other: 'At least {min} characters' }),
  tooLong: plural<{ max: number }>('max', { one: 'At most {max} character', other: 'At most {max} characters' }),
  wholeNumber: 'Enter a whole number',
  atLeast: params<{ min: string }>('Enter {min} or more'),
  atMost: params<{ max: string }>('Enter {max} or less'),
  email: 'Enter a valid email address',
  code: 'Enter the 6 digits',
  levelCode: 'Use letters, digits and + . _ - only',
  passwordMismatch: 'The passwords do not match',
  passwordHint: '8 to 128 characters. A few unrelated words make a strong one.',
  targetBelowCurrent: 'The target level cannot be below the current level',
  nameControl: 'A name cannot contain control characters or text-direction marks',
  nameBlank: 'Enter a name with letters or other visible characters',
  /** A field the server refused for a reason the client has no words of its own for. */
  invalid: 'Check this value',
})

/** The names of the app's pages, as the header, the footer and the command palette offer them. */
export const navigationMessages = i18n('navigation', {
  home: 'Home',
  about: 'About',
  fetching: 'Fetching',
  fetchingPost: 'Posting a form',
  sharedState: 'Shared state',
  signIn: 'Sign in',
  register: 'Register',
})

/** A page whose code has not been loaded yet, asked for while the browser is offline. */
export const offlineMessages = i18n('offline', {
  title: 'You are offline',
  lead: 'This page cannot load without a connection. It will open once you are back online.',
})

/** The colour modes (lib/theme.ts), as the theme switch and the command palette name them. */
export const themeMessages = i18n('theme', {
  light: 'Light',
  dark: 'Dark',
  system: 'System',
})
