import { params } from '@nanostores/i18n'
import { i18n } from '@/client/lib/i18n'

/** Titles of the pages whose content arrives with the authentication and levels releases. */
export const pageMessages = i18n('pages', {
  login: 'Sign in',
  register: 'Create an account',
  confirm: 'Confirm',
  account: 'Account',
  create: 'New level',
  levels: 'Language levels',
  levelCreate: 'New level',
  level: params<{ id: string }>('Level {id}'),
  comingSoon: 'This page is being built and arrives in the next release.',
})
