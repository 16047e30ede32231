import { i18n } from '@/client/lib/i18n'

/** Why a provider sign-in or linking came back failed (lib/provider-errors.ts), on /login and /account. */
export const providerErrorMessages = i18n('providerErrors', {
  cancelled: 'You cancelled the sign-in at the provider. Nothing was changed.',
  cancelledLink: 'You cancelled linking at the provider. Nothing was changed.',
  expired: 'This sign-in link has expired or was already used. Start again.',
  unavailable: 'The provider could not be reached or refused the sign-in. Try again later.',
  timeout: 'The provider took too long to answer. Try again.',
  unverifiable: "The provider's answer could not be verified. Nothing was changed.",
  noEmail: 'The provider did not share an email address, which Lingua needs.',
  emailNotVerified:
    'The provider has not verified this email address, so no account was created. Verify it at the provider or register with a password.',
  accountNotLinked:
    'An account with this email already exists. Sign in to it another way, then link the provider on your account page.',
  linkedElsewhere: 'This provider identity is already linked to another account.',
  emailMismatch: "The provider's email does not match this account's email.",
  linkFailed: 'The provider could not be linked.',
  generic: 'Signing in with the provider failed. Try again.',
  genericLink: 'Linking the provider failed. Try again.',
})
