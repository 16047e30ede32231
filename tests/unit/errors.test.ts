import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { z } from 'zod/mini'
import { demoMessageSchema } from '@/shared/demo'
import { type ApiErrorBody, type ErrorCode, errorCodes, fieldErrorsFromIssues, isApiErrorBody } from '@/shared/errors'
import type { AppEnv } from '@/server/http/context'
import { ApiError, defaultMessages, errorBody, handleError } from '@/server/http/errors'

/** The HTTP status each code must be answered with (written out: the test is of the answer). */
const expectedStatus: Record<ErrorCode, number> = {
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
  request_timeout: 408,
  conflict: 409,
  new_word_not_allowed: 409,
  decks_full: 409,
  cards_full: 409,
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

/** The answer of an app whose one route throws what `fail` throws, through the API's error handler. */
async function answerTo(fail: () => never): Promise<Response> {
  const app = new Hono<AppEnv>()
  app.use(async (c, next) => {
    c.set('requestId', 'test')
    c.set('logger', () => pino({ level: 'silent' }))
    await next()
  })
  app.get('/', () => fail())
  app.onError(handleError)
  return app.request('/')
}

describe('the API error shape', () => {
  it('is built in one place', () => {
    expect(errorBody('not_found', 'Nope')).toEqual({ error: { code: 'not_found', message: 'Nope' } })
    expect(errorBody('validation_failed', 'Bad', { name: ['Required'] })).toEqual({
      error: { code: 'validation_failed', message: 'Bad', fields: { name: ['Required'] } },
    })
  })

  it('answers every code with its HTTP status, through the error handler', async () => {
    for (const code of errorCodes) {
      const response = await answerTo(() => {
        throw new ApiError(code, `Failed: ${code}`)
      })
      expect({ code, status: response.status }).toEqual({ code, status: expectedStatus[code] })
      expect(response.headers.get('content-type')).toMatch(/^application\/json\b/)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(await response.json()).toEqual({ error: { code, message: `Failed: ${code}` } })
    }
  })

  it('answers field errors, extra headers, the HTTP exceptions of Hono and any other failure in the same shape', async () => {
    const invalid = await answerTo(() => {
      throw new ApiError('validation_failed', 'Bad', { name: ['Required'] })
    })
    expect(invalid.status).toBe(400)
    expect(await invalid.json()).toEqual(errorBody('validation_failed', 'Bad', { name: ['Required'] }))

    const limited = await answerTo(() => {
      throw new ApiError('rate_limited', 'Slow down', undefined, { 'Retry-After': '7' })
    })
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '7'])

    // An HTTP exception gets the generic code of its status; a status of no code of its own, the
    // nearest (4xx: bad_request, 5xx: internal_error).
    for (const [status, code, answered] of [
      [404, 'not_found', 404],
      [405, 'method_not_allowed', 405],
      [413, 'payload_too_large', 413],
      [431, 'headers_too_large', 431],
      [418, 'bad_request', 400],
      [502, 'internal_error', 500],
    ] as const) {
      const response = await answerTo(() => {
        throw new HTTPException(status)
      })
      expect({ status, answered: response.status }).toEqual({ status, answered })
      expect(((await response.json()) as ApiErrorBody).error.code).toBe(code)
    }

    const crash = await answerTo(() => {
      throw new Error('secret detail')
    })
    expect(crash.status).toBe(500)
    expect(await crash.json()).toEqual(errorBody('internal_error', defaultMessages.internal_error))
  })

  it('is recognised by the client', () => {
    expect(isApiErrorBody(errorBody('conflict', 'x'))).toBe(true)
    expect(isApiErrorBody({ error: 'x' })).toBe(false)
    expect(isApiErrorBody({ message: 'x' })).toBe(false)
    expect(isApiErrorBody(null)).toBe(false)
  })

  it('turns validation issues into field errors', () => {
    const result = z.safeParse(demoMessageSchema, { name: '', email: 'x', message: 'short' })
    expect(result.success).toBe(false)
    const fields = fieldErrorsFromIssues(result.error?.issues ?? [])
    expect(Object.keys(fields).sort()).toEqual(['email', 'message', 'name'])
    expect(fieldErrorsFromIssues([{ path: [], message: 'whole body' }])).toEqual({ _: ['whole body'] })
    // Field names come from the client: Object.prototype's own names are fields like any other.
    expect(
      fieldErrorsFromIssues([
        { path: ['constructor'], message: 'a' },
        { path: ['__proto__'], message: 'b' },
        { path: ['constructor'], message: 'c' },
      ]),
    ).toEqual(Object.fromEntries([['constructor', ['a', 'c']], ['__proto__', ['b']]]))
  })
})
