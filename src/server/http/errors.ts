import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import {
  type ApiErrorBody,
  type ErrorCode,
  type FieldErrors,
  fieldErrorsFromIssues,
  statusOfCode,
} from '@/shared/errors'
import { isDatabaseUnavailable, isTransactionConflict } from '@/server/db/errors'
import { isRedisUnavailable } from '@/server/redis'
import type { AppEnv } from './context'

/** An expected failure, answered with the API's error shape. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message)
    this.name = 'ApiError'
  }

  get status(): number {
    return statusOfCode[this.code]
  }

  static validation(
    error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
    message = 'The request is not valid.'): ApiError {
    return new ApiError('validation_failed', message, fieldErrorsFromIssues(error.issues))
  }
}

export function errorBody(code: ErrorCode, message: string, fields?: FieldErrors): ApiErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } }
}

function errorResponse(c: Context, error: ApiError): Response {
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value)
  c.header('Cache-Control', 'no-store')
  return c.json(
    errorBody(error.code, error.message, error.fields),
    error.status as ContentfulStatusCode,
  )
}

/** The one place where any thrown value becomes an HTTP answer. */
export function handleError(error: unknown, c: Context<AppEnv>): Response {
  if (error instanceof ApiError) return errorResponse(c, error)
  if (error instanceof HTTPException) {
    const code = codeOfStatus(error.status)
    return errorResponse(c, new ApiError(code, error.message || defaultMessages[code]))
  }
  const unavailable = isDatabaseUnavailable(error) ? 'database' : isRedisUnavailable(error) ? 'redis' : undefined
  if (unavailable) {
    c.var.logger().error({ err: error }, `${unavailable} unavailable`)
    return errorResponse(
      c,
      new ApiError('service_unavailable', defaultMessages.service_unavailable, undefined, {
        'Retry-After': '5',
      }),
    )
  }
  if (isTransactionConflict(error)) {
    c.var.logger().warn({ err: error }, 'transaction aborted by a concurrent one')
    return errorResponse(c, new ApiError('conflict', 'The data changed while saving. Try again.'))
  }
  c.var.logger().error({ err: error }, 'unhandled error')
  return errorResponse(c, new ApiError('internal_error', defaultMessages.internal_error))
}

export const defaultMessages: Record<ErrorCode, string> = {
  bad_request: 'The request could not be understood.',
  validation_failed: 'The request is not valid.',
  weak_password: 'The password is too weak.',
  invalid_token: 'The link or code is invalid or has expired.',
  unauthenticated: 'Sign in to continue.',
  invalid_credentials: 'Invalid email or password.',
  email_not_verified: 'Confirm your email address first.',
  account_disabled: 'This account is disabled',
  forbidden: 'You are not allowed to do this.',
  not_found: 'Not found.',
  method_not_allowed: 'This method is not allowed on this path.',
  conflict: 'The request conflicts with the current state.',
  new_word_not_allowed: 'This new word is not one the queue offers now.',
  decks_full: 'You hold as many decks as a learner may.',
  cards_full: 'Your decks are full: at most 50,000 cards',
  request_timeout: 'The request did not arrive in time.',
  payload_too_large: 'The request body is too large.',
  unsupported_media_type: 'The request body must be JSON (Content-Type: application/json).',
  invalid_image: 'The picture could not be read: the file is damaged or incomplete.',
  image_too_large: 'The picture has too many pixels.',
  rate_limited: 'Too many requests. Try again later.',
  email_recently_sent: 'An email was sent to this address moments ago.',
  headers_too_large: 'The request line or headers are too large.',
  internal_error: 'Something went wrong on our side.',
  service_unavailable: 'The service is temporarily unavailable. Try again shortly.',
}

/** The generic code of an HTTP status, for failures that carry no more specific one. */
const genericCodes: Partial<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'headers_too_large',
  503: 'service_unavailable',
}

export function codeOfStatus(status: number): ErrorCode {
  return genericCodes[status] ?? (status >= 500 ? 'internal_error' : 'bad_request')
}
