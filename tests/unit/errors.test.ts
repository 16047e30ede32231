import { describe, expect, it } from 'vitest'
import { z } from 'zod/mini'
import { demoMessageSchema } from '@/shared/demo'
import { errorCodes, fieldErrorsFromIssues, isApiErrorBody, statusOfCode } from '@/shared/errors'
import { ApiError, errorBody } from '@/server/http/errors'

describe('the API error shape', () => {
  it('is built in one place', () => {
    expect(errorBody('not_found', 'Nope')).toEqual({ error: { code: 'not_found', message: 'Nope' } })
    expect(errorBody('validation_failed', 'Bad', { name: ['Required'] })).toEqual({
      error: { code: 'validation_failed', message: 'Bad', fields: { name: ['Required'] } },
    })
  })

  it('gives every code its status', () => {
    for (const code of errorCodes) {
      expect(new ApiError(code, 'x').status).toBe(statusOfCode[code])
    }
    expect(statusOfCode).toMatchObject({
      validation_failed: 400,
      unauthenticated: 401,
      forbidden: 403,
      not_found: 404,
      conflict: 409,
      payload_too_large: 413,
      unsupported_media_type: 415,
      rate_limited: 429,
      internal_error: 500,
      service_unavailable: 503,
    })
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
