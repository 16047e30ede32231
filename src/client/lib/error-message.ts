import { ApiRequestError, NetworkError, isServiceUnavailable } from './http-error'
import type { apiErrorMessages } from './messages'

type Messages = ReturnType<typeof apiErrorMessages.get>

/** The one place where a failure becomes a sentence for the user. */
export function errorMessage(error: unknown, t: Messages): string {
  if (error instanceof NetworkError) return t.network
  if (isServiceUnavailable(error)) return t.serviceUnavailable
  if (error instanceof ApiRequestError) {
    switch (error.code) {
      case 'invalid_credentials':
        return t.invalidCredentials
      case 'email_not_verified':
        return t.emailNotVerified
      case 'weak_password':
        return t.weakPassword
      case 'invalid_token':
        return t.invalidToken
      default:
        break
    }
    switch (error.status) {
      case 400:
        return error.code === 'validation_failed' ? t.validation : error.message
      case 401:
        return t.sessionMissing
      case 403:
        return t.forbidden
      case 404:
        return t.notFound
      case 409:
        return t.conflict
      case 413:
        return t.tooLarge
      case 429: {
        const seconds = error.retryAfterSeconds
        if (!seconds) return t.rateLimitedNoTime
        // A locked password sign-in waits minutes (Retry-After up to 900 s).
        return seconds > 90
          ? t.rateLimitedMinutes({ minutes: String(Math.ceil(seconds / 60)) })
          : t.rateLimited({ seconds: String(seconds) })
      }
      default:
        if (error.status >= 500) return t.server
    }
    return error.message || t.unknown
  }
  return t.unknown
}
