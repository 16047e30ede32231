/* No zod here: the sign-in pages load these constants on their first visit. */

/**
 * The ways one account can sign in, as `/account` lists them (`GET /api/me/sign-in-methods`).
 * The emailed code is not among them: it is open to every confirmed account and cannot be removed.
 */
export interface SignInMethods {
  /** The account has a password (it may set one through recovery when it has none). */
  password: boolean
  /** Every configured provider, with the identities of it linked to this account. */
  providers: {
    id: string
    name: string
    /** `id` is what `POST /api/auth/unlink-account` takes; `accountId` is the provider's subject. */
    linked: { id: string; accountId: string; linkedAt: string }[]
  }[]
  passkeys: {
    id: string
    name: string | null
    createdAt: string | null
    lastUsedAt: string | null
    /** `singleDevice` or `multiDevice` (synced). */
    deviceType: string
    backedUp: boolean
  }[]
  /** Password + linked identities + passkeys: the last one can never be removed. */
  count: number
}

/** Passkey names: what the account page asks for and the server keeps (`passkeyNameSchema`). */
export const PASSKEY_NAME_MAX_LENGTH = 60


/**
 * The `?error=` codes a provider sign-in can come back with (better-auth's callback codes and the
 * app's own). The pages show a message for each; any other code gets the generic one.
 */
export const providerErrorCodes = [
  'access_denied',
  'state_mismatch',
  'state_not_found',
  'please_restart_the_process',
  'invalid_callback_request',
  'invalid_code',
  'issuer_mismatch',
  'unable_to_get_user_info',
  'email_not_found',
  'email_not_verified_by_provider',
  'account_not_linked',
  'account_already_linked_to_different_user',
  'email_does_not_match',
  'unable_to_link_account',
  'provider_timeout',
  'provider_unavailable',
] as const
export type ProviderErrorCode = (typeof providerErrorCodes)[number]
