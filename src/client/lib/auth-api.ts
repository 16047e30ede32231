import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser'
import { CODE_PATTERN } from '@/shared/auth'
import type { CodeSignInValues, RegisterValues, SignInValues } from '@/shared/auth-schemas'
import type { SignInMethods } from '@/shared/sign-in-methods'
import { api } from './api'

/**
 * The better-auth endpoints the pages call (under `/api/auth`), typed. better-auth's own client
 * would add its fetch layer beside ours; these are plain calls through `api`, so every failure
 * arrives in the one error shape.
 */

const post = <T = unknown>(path: string, json: unknown = {}) =>
  api<T>(`/auth${path}`, { method: 'POST', json })

/** A password or code sign-in answers this when the account has two factors on. */
export interface SignInAnswer {
  twoFactorRedirect?: boolean
}

/** A session as the list shows it; no token: the page never holds one (`id` revokes it). */
export interface ActiveSession {
  id: string
  createdAt: string
  updatedAt: string
  expiresAt: string
  ipAddress?: string | null
  userAgent?: string | null
}

/** Where the browser goes next to sign in at, or link, a provider (better-auth's answer). */
export interface ProviderRedirect {
  url: string
  redirect: boolean
}

export interface TwoFactorSetup {
  totpURI: string
  backupCodes: string[]
}

export const authApi = {
  signUp: ({ name, email, password }: RegisterValues) =>
    post('/sign-up/email', { name, email, password }),
  signIn: ({ email, password }: SignInValues) =>
    post<SignInAnswer>('/sign-in/email', { email, password }),
  sendSignInCode: (email: string) =>
    post('/email-otp/send-verification-otp', { email, type: 'sign-in' }),
  signInWithCode: ({ email, code }: CodeSignInValues) =>
    post<SignInAnswer>('/sign-in/email-otp', { email, otp: code }),
  /** Signs in (second step), or turns two factors on when a signed-in user enrols. */
  verifyTotp: (code: string) => post('/two-factor/verify-totp', { code }),
  /** `CODE_LENGTH` digits are an authenticator code; anything else is tried as a backup code. */
  verifySecondFactor: (code: string) =>
    CODE_PATTERN.test(code)
      ? authApi.verifyTotp(code)
      : post('/two-factor/verify-backup-code', { code }),
  resendVerification: (email: string) => post('/send-verification-email', { email }),
  verifyEmail: (token: string) =>
    api<{ status: boolean }>(`/auth/verify-email?${new URLSearchParams({ token }).toString()}`),
  requestPasswordReset: (email: string) => post('/request-password-reset', { email }),
  resetPassword: (token: string, newPassword: string) =>
    post('/reset-password', { token, newPassword }),
  updateUser: (values: { name: string }) => post('/update-user', values),
  changeEmail: (newEmail: string) => post('/change-email', { newEmail }),
  changePassword: (currentPassword: string, newPassword: string) =>
    post('/change-password', { currentPassword, newPassword, revokeOtherSessions: true }),
  enableTwoFactor: (password: string) => post<TwoFactorSetup>('/two-factor/enable', { password }),
  disableTwoFactor: (password: string) => post('/two-factor/disable', { password }),
  listSessions: () => api<ActiveSession[]>('/auth/list-sessions'),
  revokeSession: (id: string) => api<void>(`/me/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  revokeAllSessions: () => post('/revoke-sessions'),
  deleteAccount: (password: string) => post('/delete-user', { password }),

  /**
   * Starts a provider sign-in: the browser then goes to `url`, and the provider sends it back to
   * `callbackURL`, or to `errorCallbackURL` with `?error=<code>` (absolute URLs of this app).
   */
  /** Links a provider identity to the signed-in account; back to `callbackURL` either way. */
  linkProvider: (provider: string, callbackURL: string) =>
    post<ProviderRedirect>('/link-social', { provider, callbackURL, errorCallbackURL: callbackURL }),
  /** `id`: the linked identity's `id` in `SignInMethods` (better-auth's account id, not the provider's). */
  unlinkProvider: (id: string) => post('/unlink-account', { accountId: id }),
  signInMethods: (signal?: AbortSignal) => api<SignInMethods>('/me/sign-in-methods', { signal }),

  /** A passkey sign-in's challenge (kept by the server in a short-lived cookie). */
  passkeySignInOptions: () =>
    api<PublicKeyCredentialRequestOptionsJSON>('/auth/passkey/generate-authenticate-options'),
  verifyPasskeySignIn: (response: AuthenticationResponseJSON) =>
    post<SignInAnswer>('/passkey/verify-authentication', { response }),
  /** A new passkey's challenge; the session must be fresh (403 otherwise). */
  passkeyRegistrationOptions: () =>
    api<PublicKeyCredentialCreationOptionsJSON>('/auth/passkey/generate-register-options'),
  verifyPasskeyRegistration: (response: RegistrationResponseJSON, name: string) =>
    post('/passkey/verify-registration', { response, name }),
  renamePasskey: (id: string, name: string) => post('/passkey/update-passkey', { id, name }),
  removePasskey: (id: string) => post('/passkey/delete-passkey', { id }),
}
