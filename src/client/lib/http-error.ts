import type { ErrorCode, FieldErrors } from '@/shared/errors'

/** A message the error screen shows in the interface language (features/errors/messages.ts). */
export type LocalizedMessage =
  | { key: 'adminsOnly' | 'levelNotFound' | 'deckNotFound' }
  | { key: 'pageNotFound' | 'pageNotFoundParam'; path: string }

/** An error with an HTTP status, shown by the fallback error screen. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message?: string,
    readonly localized?: LocalizedMessage,
  ) {
    super(message ?? '')
    this.name = 'HttpError'
  }
}

/** An API answer in the error shape. */
export class ApiRequestError extends HttpError {
  constructor(
    status: number,
    readonly code: ErrorCode | 'unknown',
    message: string,
    readonly fields?: FieldErrors,
    readonly retryAfterSeconds?: number,
  ) {
    super(status, message)
    this.name = 'ApiRequestError'
  }
}

/** The request never got an answer (offline, DNS, connection reset). */
export class NetworkError extends Error {
  constructor(cause?: unknown) {
    super('Network request failed', { cause })
    this.name = 'NetworkError'
  }
}

/** 502, 503 and 504 mean the service is unavailable; retrying a read may help. */
export function isServiceUnavailable(error: unknown): boolean {
  return error instanceof HttpError && [502, 503, 504].includes(error.status)
}

/** better-auth's 403 "Session is not fresh": the change wants a recent sign-in. */
export function isSessionNotFresh(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 403 && /fresh/i.test(error.message)
}

export function isRetryable(error: unknown): boolean {
  return error instanceof NetworkError || isServiceUnavailable(error)
}

/** Status and message for the error screen; a missing message stays empty (localized later). */
export function describeError(error: unknown): {
  status: number
  message: string
  localized?: LocalizedMessage
} {
  if (error instanceof HttpError) {
    return { status: error.status, message: error.message, localized: error.localized }
  }
  if (error instanceof Error) return { status: 500, message: error.message }
  if (typeof error === 'string') return { status: 500, message: error }
  return { status: 500, message: '' }
}
