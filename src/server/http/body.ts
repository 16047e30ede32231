import { IMPORTS_PATH } from '@/shared/imports'
import type { Context, HonoRequest, MiddlewareHandler } from 'hono'
import { validator } from 'hono-openapi'
import { z } from 'zod/mini'
import { PROVIDER_FORM_PATH } from '@/shared/auth'
import { AVATAR_UPLOAD_PATH } from '@/shared/avatars'
import { CSV_PATH_SUFFIX } from '@/shared/csv'
import { REMINDER_UNSUBSCRIBE_PATH } from '@/shared/reminders'
import { rowIdText } from '@/shared/query'
import type { AppEnv } from './context'
import { ApiError, defaultMessages } from './errors'

const MAX_BODY_BYTES = 64 * 1024

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

const jsonType = /^application\/([\w.-]+\+)?json\s*(;|$)/i
const formType = /^application\/x-www-form-urlencoded\s*(;|$)/i
/** A CSV file (`text/csv`), which the imports of CSV file resources take (shared/csv.ts). */
export const csvType = /^text\/csv\s*(;|$)/i
/** The bodies of an RFC 8058 one-click POST: an HTML form's, or multipart. */
const oneClickType = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i
/** Whether a body of this type is an HTML form's (`application/x-www-form-urlencoded`). */
export const isFormType = (contentType: string | undefined) => formType.test(contentType ?? '')

/**
 * The API's input, checked once for every endpoint, better-auth's included: a query string with
 * NUL is refused (400 on its parameter, see `refuseNul`); bodies that are not JSON (415) and bodies
 * over 64 KiB (413) are refused (a picture upload, a CSV file and the provider form excepted:
 * their routes read them); then the body is
 * read here, once. A body the client stops sending
 * before its end (fewer bytes than its Content-Length, a broken chunk) is then this one 400, the
 * client's failure, wherever the body would have been read first: better-auth answered it with a
 * 500, and a validator's broken stream was logged as the database being unavailable (its error
 * carries the code ECONNRESET).
 *
 * A body refused on a path that does not take the method at all is told so first:
 * `methodNotAllowed` throws the 405 (with `Allow`) that the route table would have answered.
 */
export function apiBodyGuard(methodNotAllowed: (c: Context<AppEnv>) => Promise<void>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    refuseNulInQuery(c.req.url)
    // Reads skip the body checks: building the body stream costs a GET half its throughput.
    if (!methodsWithBody.has(c.req.method)) return next()
    // A picture is a file, not JSON: its route reads it with its own limit (`readBody`).
    if (c.req.method === 'PUT' && c.req.path === AVATAR_UPLOAD_PATH) return next()
    // An import is a file of up to 300 MB: its route streams it, after checking who sends it.
    if (c.req.method === 'POST' && c.req.path === IMPORTS_PATH) return next()
    const request = c.req.raw
    if (!hasBody(request)) return next()
    // The one HTML form the API takes (the provider buttons): its route reads it.
    if (c.req.path === PROVIDER_FORM_PATH && isFormType(c.req.header('content-type'))) return next()
    // A mail client's one-click unsubscribe (RFC 8058), form-encoded or multipart: its route reads it.
    if (c.req.path === REMINDER_UNSUBSCRIBE_PATH && oneClickType.test(c.req.header('content-type') ?? '')) return next()
    // A CSV file (up to megabytes) sent to a file resource (shared/csv.ts): its route reads it,
    // with its own limit, after checking who sends it.
    if (c.req.method === 'POST' && c.req.path.endsWith(CSV_PATH_SUFFIX) && csvType.test(c.req.header('content-type') ?? '')) return next()
    let body: Awaited<ReturnType<typeof readBody>>
    try {
      if (!jsonType.test(c.req.header('content-type') ?? '')) {
        throw new ApiError('unsupported_media_type', defaultMessages.unsupported_media_type)
      }
      body = await readBody(request)
    } catch (refusal) {
      await methodNotAllowed(c)
      throw refusal
    }
    const text = new TextDecoder().decode(body)
    const parsed = checkJson(text)
    // The rest of the app reads the body read here, through Hono's cache of it (`c.req.json()`,
    // `c.req.text()`, `c.req.arrayBuffer()`, the validators): the request is not rebuilt around
    // it, which cost a write a quarter of its CPU (two undici Requests and their streams).
    // Malformed JSON is not cached as parsed: whoever reads it as JSON refuses it as such. (Hono
    // keeps each reading as a promise, although its type names the reading functions.)
    const cache = c.req.bodyCache as Partial<Record<'arrayBuffer' | 'text' | 'json', Promise<unknown>>>
    cache.arrayBuffer = Promise.resolve(body.buffer)
    cache.text = Promise.resolve(text)
    if (parsed !== unparsable) cache.json = Promise.resolve(parsed)
    return next()
  }
}

const unparsable = Symbol('unparsable')

/**
 * What every endpoint (better-auth's too) would otherwise get wrong, checked once here on the text
 * as the JSON readers decode it (TextDecoder drops a leading BOM):
 * - a body that is not an object: every body of this API is one, and better-auth's hooks read
 *   fields of whatever they get (`'name' in false` threw: a 500 on sign-up);
 * - text with NUL: PostgreSQL cannot store it, so it would fail in the database (a 500) instead of
 *   here (400 on its field). In JSON, NUL can only be the escape `\u0000`, so its path is looked
 *   for only when the text has one.
 * Answers the body parsed, or `unparsable` for malformed JSON, which is left to whoever reads it.
 */
function checkJson(text: string): unknown {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return unparsable
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw ApiError.validation({ issues: [{ path: [], message: 'The body must be a JSON object.' }] })
  }
  const path = /(?<!\\)(\\\\)*\\u0000/.test(text) ? pathOfNul(parsed) : undefined
  if (path) throw ApiError.validation({ issues: [{ path, message: nulMessage }] })
  return parsed
}

const nulMessage = 'Must not contain the NUL character (U+0000).'

/**
 * PostgreSQL cannot store NUL, nor compare text with it: a search, a token or a code with NUL
 * failed in the database (500), in the app's routes and in better-auth's (`?token=%00`). Only a
 * query string with `%00` in it is parsed.
 */
function refuseNulInQuery(url: string) {
  const start = url.indexOf('?')
  if (start < 0 || !url.includes('%00', start)) return
  const issues = [...new URLSearchParams(url.slice(start + 1))]
    .filter(([name, value]) => name.includes('\u0000') || value.includes('\u0000'))
    .map(([name]) => ({ path: [name.includes('\u0000') ? '_' : name], message: nulMessage }))
  if (issues.length > 0) throw ApiError.validation({ issues }, 'The query string is not valid.')
}

const tooLarge = () => new ApiError('payload_too_large', defaultMessages.payload_too_large)

function hasBody(request: Request): boolean {
  // HTTP/1.1 framing (RFC 9112 §6.3): without Content-Length or Transfer-Encoding there is no body.
  // `request.body` is no guide: the Node adapter gives every non-GET/HEAD request a stream, so a
  // bodyless DELETE (as fetch and curl send it) would be refused with 415.
  const length = request.headers.get('content-length')
  if (length !== null) return length.trim() !== '0'
  return request.headers.has('transfer-encoding')
}

const endedEarly = () => new ApiError('bad_request', 'The request body ended before it was complete.')

/** The whole body, at most `maxBytes` (413 beyond); 400 when it stops before its end. */
export async function readBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Uint8Array<ArrayBuffer>> {
  const announced = request.headers.get('content-length')
  // Announced too large: refused before a byte of it is read.
  if (Number(announced) > maxBytes) throw tooLarge()
  // Announced within the limit: read whole (the Node adapter reads it from the socket, without a
  // stream); HTTP/1.1 ends the body at its announced length.
  if (announced !== null) {
    try {
      return new Uint8Array(await request.arrayBuffer())
    } catch {
      throw endedEarly()
    }
  }
  // Chunked: read in chunks, refused once past the limit.
  const reader = request.body?.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array> | undefined
    try {
      chunk = await reader?.read()
    } catch {
      throw endedEarly()
    }
    if (!chunk || chunk.done) break
    size += chunk.value.length
    if (size > maxBytes) throw tooLarge()
    chunks.push(chunk.value)
  }
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.length
  }
  return body
}

/** The body fields of better-auth's endpoints that carry an email address. */
export const authEmailFields = ['email', 'newEmail']
export const EMAIL_MAX_LENGTH = 254
const emailAddress = z.string().check(z.maxLength(EMAIL_MAX_LENGTH), z.email())

/**
 * The body of a request handed to better-auth (after `apiBodyGuard` read it), as the OpenAPI
 * document describes it:
 * - a POST without a body is one with `{}`: better-auth answered 415 to a bodiless sign-out,
 *   which the document allows (its body is optional);
 * - an `email` or `newEmail` that is not an email address is refused (400 on it) on every
 *   endpoint: the document declares them `format: email`, and some of better-auth's endpoints
 *   took any text (`/email-otp/request-password-reset`).
 */
export async function authRequestBody(request: HonoRequest, headers: Headers): Promise<string | null> {
  if (request.method !== 'POST') return null
  if (!hasBody(request.raw)) {
    headers.set('content-type', 'application/json')
    headers.delete('content-length')
    return '{}'
  }
  const text = await request.text()
  if (authEmailFields.some((field) => text.includes(`"${field}"`))) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return text
    }
    const issues = authEmailFields.flatMap((field) => {
      const value = (parsed as Record<string, unknown>)[field]
      return typeof value === 'string' && !emailAddress.safeParse(value).success
        ? [{ path: [field], message: 'Must be an email address.' }]
        : []
    })
    if (issues.length > 0) throw ApiError.validation({ issues })
  }
  return text
}

/** 413 for a JSON body (as `apiBodyGuard` read it) over `maxBytes`, a route's own limit below the API's. */
export function bodyAtMost(maxBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if ((await c.req.arrayBuffer()).byteLength > maxBytes) throw tooLarge()
    return next()
  }
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

/**
 * The `id` of a path naming a row of an integer column: a positive integer it can hold. Anything
 * else names no row: `refusal` (404, like an id with no row), not 400.
 */
export function rowIdParam(refusal: () => ApiError) {
  return pathParams(z.object({ id: rowIdText() }), refusal)
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

/**
 * The path of the first string with NUL in a parsed input, if any. Without recursion, and each
 * node knowing only its parent: a body nested thousands deep (under 64 KiB) must neither overflow
 * the stack nor copy its path at every level.
 */
function pathOfNul(input: unknown): PropertyKey[] | undefined {
  interface Node {
    value: unknown
    key?: PropertyKey
    parent?: Node
  }
  const pending: Node[] = [{ value: input }]
  for (let node = pending.pop(); node; node = pending.pop()) {
    const { value } = node
    if (typeof value === 'string') {
      if (!value.includes('\u0000')) continue
      const path: PropertyKey[] = []
      for (let at: Node | undefined = node; at?.parent; at = at.parent) path.unshift(at.key as PropertyKey)
      return path
    }
    if (typeof value !== 'object' || value === null) continue
    for (const [key, child] of Object.entries(value)) {
      pending.push({ value: child, key: Array.isArray(value) ? Number(key) : key, parent: node })
    }
  }
  return undefined
}
