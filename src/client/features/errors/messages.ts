import { params } from '@nanostores/i18n'
import { i18n } from '@/client/lib/i18n'

export const errorMessages = i18n('errors', {
  heading: 'Something went wrong.',
  unknown: 'An unknown error occurred.',
  home: 'Home',
  goBack: 'Go Back',
  pageNotFound: params<{ path: string }>('Page not found: {path}'),
  pageNotFoundParam: params<{ path: string }>('Page Not Found: {path}'),
  adminsOnly: 'Administrators only',
  levelNotFound: 'Language level not found',
  deckNotFound: 'Deck not found',
})
