import { type ErrorCode, type FieldErrors, statusOfCode } from '@/shared/errors'
import { codeOfStatus, defaultMessages, errorBody } from '@/server/http/errors'

/** better-auth's error codes that the client must tell apart, in the API's own codes. */
const authCodes: Record<string, { code: ErrorCode; field?: string }> = {
  INVALID_EMAIL_OR_PASSWORD: { code: 'invalid_credentials' },
  INVALID_PASSWORD: { code: 'invalid_credentials' },
  EMAIL_NOT_VERIFIED: { code: 'email_not_verified' },
  // The admin plugin refuses every new session of a disabled ("banned") account.
  BANNED_USER: { code: 'account_disabled' },
  PASSWORD_TOO_SHORT: { code: 'weak_password', field: 'password' },
  PASSWORD_TOO_LONG: { code: 'weak_password', field: 'password' },
  PASSWORD_TOO_WEAK: { code: 'weak_password', field: 'password' },
  INVALID_TOKEN: { code: 'invalid_token' },
  TOKEN_EXPIRED: { code: 'invalid_token' },
  INVALID_OTP: { code: 'invalid_token' },
  OTP_EXPIRED: { code: 'invalid_token' },
  // An emailed code tried too often is void: like an expired one, the user asks for a new code.
  TOO_MANY_ATTEMPTS: { code: 'invalid_token' },
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: { code: 'invalid_token', field: 'code' },
  // The second step: a wrong authenticator or backup code is the code's fault, not the session's.
  INVALID_CODE: { code: 'invalid_token', field: 'code' },
  INVALID_BACKUP_CODE: { code: 'invalid_token', field: 'code' },
  ACCOUNT_TEMPORARILY_LOCKED: { code: 'rate_limited' },
  EMAIL_RECENTLY_SENT: { code: 'email_recently_sent' },
  INVALID_EMAIL: { code: 'validation_failed', field: 'email' },
  PASSWORD_REQUIRED: { code: 'validation_failed', field: 'password' },
  INVALID_NAME: { code: 'validation_failed', field: 'name' },
  INVALID_IMAGE: { code: 'validation_failed', field: 'image' },
  VALIDATION_ERROR: { code: 'validation_failed' },
  // Sign-in methods (sign-in-methods.ts, and the passkey plugin's own codes).
  LAST_SIGN_IN_METHOD: { code: 'conflict' },
  // Deleting one's own account as the last administrator (hooks.ts, ownDeletionHooks).
  LAST_ADMINISTRATOR: { code: 'conflict' },
  INVALID_PASSKEY_NAME: { code: 'validation_failed', field: 'name' },
  // A passkey this server does not know (401); one it knows whose answer failed its checks (400).
  PASSKEY_NOT_FOUND: { code: 'invalid_credentials' },
  USER_NOT_VERIFIED: { code: 'bad_request' },
  AUTHENTICATION_FAILED: { code: 'bad_request' },
  CHALLENGE_NOT_FOUND: { code: 'invalid_token' },
  FAILED_TO_VERIFY_REGISTRATION: { code: 'bad_request' },
}

/**
 * Rewrites a failed better-auth response into the API's one error shape, with the status of its
 * code (a failure the client tells apart, or the generic code of better-auth's status: its 422
 * "Failed to create user" is a 400 `bad_request`, as the OpenAPI document says every failure
 * carries the status of its code), and its headers (cookies, Retry-After). Successful responses
 * pass unchanged.
 */
export async function inApiErrorShape(response: Response): Promise<Response> {
  if (response.status < 400) return response
  const text = await response.text()
  let parsed: { code?: unknown; message?: unknown } = {}
  try {
    parsed = JSON.parse(text) as typeof parsed
  } catch {
    // Not JSON: only the status is known.
  }
  const known = typeof parsed.code === 'string' ? authCodes[parsed.code] : undefined
  // better-auth answers its own 500 ("Failed to get session", …) when its storage — the database
  // or Redis — fails under it: the client may try again, as on any route while a store is down.
  const unavailable = !known && response.status === 500
  const code = unavailable ? 'service_unavailable' : (known?.code ?? codeOfStatus(response.status))
  const message = unavailable
    ? defaultMessages.service_unavailable
    : typeof parsed.message === 'string' && parsed.message
      ? parsed.message
      : defaultMessages[code]
  const fields: FieldErrors | undefined = known?.field ? { [known.field]: [message] } : undefined
  const headers = new Headers(response.headers)
  headers.set('Content-Type', 'application/json')
  headers.set('Cache-Control', 'no-store')
  headers.delete('Content-Length')
  const retryAfter = headers.get('X-Retry-After')
  if (response.status === 429 && retryAfter && !headers.has('Retry-After')) {
    headers.set('Retry-After', retryAfter)
  }
  if (unavailable) headers.set('Retry-After', '5')
  return new Response(JSON.stringify(errorBody(code, message, fields)), {
    status: statusOfCode[code],
    headers,
  })
}
