/** The one error shape of the API: `{ error: { code, message, fields? } }`. */
export const errorCodes = [
  'bad_request',
  'validation_failed',
  'weak_password',
  'invalid_token',
  'unauthenticated',
  'invalid_credentials',
  'email_not_verified',
  'account_disabled',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'new_word_not_allowed',
  'decks_full',
  'cards_full',
  'request_timeout',
  'payload_too_large',
  'unsupported_media_type',
  'invalid_image',
  'image_too_large',
  'rate_limited',
  'email_recently_sent',
  'headers_too_large',
  'internal_error',
  'service_unavailable',
] as const

export type ErrorCode = (typeof errorCodes)[number]

export const statusOfCode: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  weak_password: 400,
  invalid_token: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  email_not_verified: 403,
  account_disabled: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  // A new word's first grade that the queue would not offer (the day's number started, another level).
  new_word_not_allowed: 409,
  // A learner's decks at their limits (100 decks, 50,000 cards).
  decks_full: 409,
  cards_full: 409,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_image: 400,
  image_too_large: 400,
  rate_limited: 429,
  email_recently_sent: 429,
  headers_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
}

/** Field name → messages for that field. */
export type FieldErrors = Record<string, string[]>

export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; fields?: FieldErrors }
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false
  const { error } = value
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  )
}

/** Turns zod issues into field errors keyed by the dotted path of each issue. */
export function fieldErrorsFromIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FieldErrors {
  // Through a Map: the client names the fields, and in a plain object a field named `constructor`
  // or `__proto__` would find Object.prototype's (filling it threw: a 500).
  const fields = new Map<string, string[]>()
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_'
    fields.set(key, [...(fields.get(key) ?? []), issue.message])
  }
  return Object.fromEntries(fields)
}
