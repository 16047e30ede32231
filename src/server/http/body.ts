import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { validator } from 'hono-openapi'
import type { z } from 'zod/mini'
import type { AppEnv } from './context.js'
import { ApiError, defaultMessages } from './errors.js'

export const MAX_BODY_BYTES = 64 * 1024

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Refuses bodies over 64 KiB (413) and bodies that are not JSON (415) on the API. */
const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new ApiError('payload_too_large', defaultMessages.payload_too_large)
  },
})

export const apiBodyGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  // Reads skip the body checks: building the body stream costs a GET half its throughput.
  if (!methodsWithBody.has(c.req.method)) return next()
  if (hasBody(c.req.raw)) {
    const type = c.req.header('content-type') ?? ''
    if (!/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type)) {
      throw new ApiError('unsupported_media_type', defaultMessages.unsupported_media_type)
    }
  }
  return limitBody(c, next)
}

function hasBody(request: Request): boolean {
  // HTTP/1.1 framing (RFC 9112 §6.3): without Content-Length or Transfer-Encoding there is no body.
  // `request.body` is no guide: the Node adapter gives every non-GET/HEAD request a stream, so a
  // bodyless DELETE (as fetch and curl send it) would be refused with 415.
  const length = request.headers.get('content-length')
  if (length !== null) return length.trim() !== '0'
  return request.headers.has('transfer-encoding')
}

/** Validates a JSON body with a shared zod schema (malformed JSON is a 400 too); documents it. */
export function jsonBody<S extends z.core.$ZodType>(schema: S) {
  return validator('json', schema, refuseWith((issues) => ApiError.validation({ issues })))
}

/** Validates the query string with a shared zod schema; documents its parameters. */
export function queryParams<S extends z.core.$ZodType>(schema: S) {
  return validator(
    'query',
    schema,
    refuseWith((issues) => ApiError.validation({ issues }, 'The query string is not valid.')),
  )
}

/**
 * Validates the path's parameters; documents them. `refusal` is the answer to a bad one: an id
 * that cannot exist names nothing, so it is the same 404 as an id with no row.
 */
export function pathParams<S extends z.core.$ZodType>(schema: S, refusal: () => ApiError) {
  return validator('param', schema, refuseWith(refusal))
}

/** A Standard Schema issue (what zod reports through `~standard`). */
interface StandardIssue {
  readonly message: string
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined
}

/**
 * The validators' hook: a failure becomes an ApiError, answered in the API's one error shape
 * (`handleError`) instead of the validator's own `{ success, error }` body.
 */
function refuseWith(refusal: (issues: { path: PropertyKey[]; message: string }[]) => ApiError) {
  return (result: { success: boolean; error?: readonly StandardIssue[] }) => {
    if (result.success) return
    throw refusal(
      (result.error ?? []).map((issue) => ({
        path: (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment)),
        message: issue.message,
      })),
    )
  }
}
