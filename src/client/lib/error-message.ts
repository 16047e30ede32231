import type { ErrorCode } from '@/shared/errors'
import { ApiRequestError, NetworkError, isServiceUnavailable } from './http-error'
import type { apiErrorMessages } from './messages'

type Messages = ReturnType<typeof apiErrorMessages.get>
type SentenceKey = { [K in keyof Messages]: Messages[K] extends string ? K : never }[keyof Messages]

/**
 * The sentence for each code of the API's error shape. The server writes its messages in English
 * for developers and logs; the user reads these, in the interface language. (`rate_limited` says
 * how long to wait, from Retry-After.)
 */
export const messageOfCode = {
  bad_request: 'badRequest',
  validation_failed: 'validation',
  weak_password: 'weakPassword',
  invalid_token: 'invalidToken',
  unauthenticated: 'sessionMissing',
  invalid_credentials: 'invalidCredentials',
  email_not_verified: 'emailNotVerified',
  account_disabled: 'accountDisabled',
  forbidden: 'forbidden',
  not_found: 'notFound',
  method_not_allowed: 'methodNotAllowed',
  conflict: 'conflict',
  new_word_not_allowed: 'newWordNotAllowed',
  decks_full: 'decksFull',
  cards_full: 'cardsFull',
  request_timeout: 'network',
  payload_too_large: 'tooLarge',
  unsupported_media_type: 'unsupportedMediaType',
  invalid_image: 'invalidImage',
  image_too_large: 'imageTooLarge',
  rate_limited: 'rateLimitedNoTime',
  email_recently_sent: 'emailRecentlySentNoTime',
  headers_too_large: 'tooLarge',
  internal_error: 'server',
  service_unavailable: 'serviceUnavailable',
} as const satisfies Record<ErrorCode, SentenceKey>

/** An answer that is not in the error shape (a proxy's page): its status says what it can. */
const messageOfStatus: Record<number, SentenceKey> = {
  400: 'badRequest',
  401: 'sessionMissing',
  403: 'forbidden',
  404: 'notFound',
  405: 'methodNotAllowed',
  409: 'conflict',
  408: 'network',
  413: 'tooLarge',
  415: 'unsupportedMediaType',
  431: 'tooLarge',
}

/** The one place where a failure becomes a sentence for the user. */
export function errorMessage(error: unknown, t: Messages): string {
  if (error instanceof NetworkError) return t.network
  if (isServiceUnavailable(error)) return t.serviceUnavailable
  if (!(error instanceof ApiRequestError)) return t.unknown
  if (error.code === 'email_recently_sent') {
    const seconds = error.retryAfterSeconds
    return seconds ? t.emailRecentlySent({ seconds: String(seconds) }) : t.emailRecentlySentNoTime
  }
  if (error.status === 429 || error.code === 'rate_limited') {
    const seconds = error.retryAfterSeconds
    if (!seconds) return t.rateLimitedNoTime
    // A locked password sign-in waits minutes (Retry-After up to 900 s).
    return seconds > 90
      ? t.rateLimitedMinutes({ minutes: String(Math.ceil(seconds / 60)) })
      : t.rateLimited({ seconds: String(seconds) })
  }
  // A code this client does not know yet (a newer server) is told by its status.
  const key: SentenceKey | undefined =
    (messageOfCode as Record<string, SentenceKey>)[error.code] ?? messageOfStatus[error.status]
  if (key) return t[key]
  return error.status >= 500 ? t.server : t.unknown
}
