import { params } from '@nanostores/i18n'
import { i18n } from '@/client/lib/i18n'

/** `/confirm`: the emailed links' outcomes (docs/product.md §7); apart, as only that page reads them. */
export const confirmMessages = i18n('confirm', {
  confirmTitle: 'Confirm',
  confirming: 'Checking your link…',
  confirmedTitle: 'Email confirmed',
  confirmedSignedIn: 'Your email is confirmed and you are signed in.',
  emailChangedTitle: 'Email changed',
  emailChanged: params<{ email: string }>('Your account now uses {email}.'),
  alreadyConfirmed: 'This email is already confirmed. Sign in to continue.',
  invalidLinkTitle: 'This link does not work',
  invalidLink: 'The link is invalid, was already used or has expired. Ask for a new one.',
  invalidEmailChange: 'The link is invalid, was already used or has expired. Ask for the change again on your account page.',
  sendNewLink: 'Send a new link',
  openAccount: 'Open account',
  newPasswordTitle: 'Choose a new password',
  newPasswordLead: 'Your other devices will be signed out.',
  setPassword: 'Set new password',
  settingPassword: 'Saving…',
  passwordChangedTitle: 'Password changed',
  passwordChanged: 'Your new password is set. Sign in with it.',
  noTokenTitle: 'Open the link from your email',
  noToken:
    'This page opens the links we email you: to confirm an account, to change an address or to reset a password. Open the link from the email, or start again here:',
  tryAgain: 'Try again',
})
