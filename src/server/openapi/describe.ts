import { type DescribeRouteOptions, describeRoute, resolver } from 'hono-openapi'
import type { z } from 'zod/mini'
import { type ErrorCode, errorCodes, statusOfCode } from '@/shared/errors'
import { apiErrorSchema } from './schemas'

/**
 * How a route says what it does, for the OpenAPI document (`document.ts`). Its input is documented
 * by its validators (`jsonBody`, `queryParams`, `pathParams` in http/body.ts), which are the ones
 * that check the request; this adds the rest: summary, who may call it, answers and failures.
 */

/** The security scheme of the session cookie (better-auth's, see document.ts). */
export const SESSION_SCHEME = 'sessionCookie'

/** The failures of the API, one response component each, all in the one error shape. */
export const errorResponses = {
  400: { name: 'BadRequest', text: 'The request is not valid (`fields` names the fields at fault).' },
  401: { name: 'Unauthenticated', text: 'Not signed in, or the credentials are wrong.' },
  403: { name: 'Forbidden', text: 'Signed in, but not allowed (e.g. not an administrator, or a cross-site write).' },
  404: { name: 'NotFound', text: 'No such resource.' },
  409: { name: 'Conflict', text: 'The request conflicts with the current state (stale version, duplicate).' },
  413: { name: 'PayloadTooLarge', text: 'The body is over its limit: 64 KiB of JSON, 5 MB for a picture.' },
  415: { name: 'UnsupportedMediaType', text: 'The body is not of the type the endpoint takes: JSON (`Content-Type: application/json`), or for a picture one of the image types it lists.' },
  429: { name: 'RateLimited', text: 'Too many requests; `Retry-After` says when to try again.' },
  500: { name: 'InternalError', text: 'Something failed on the server; no details are given.' },
  503: { name: 'ServiceUnavailable', text: 'The database is unavailable; `Retry-After` says when to try again.' },
} as const satisfies Record<number, { name: string; text: string }>

export type ErrorStatus = keyof typeof errorResponses

const retryAfter = {
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' as const } },
}

/** The codes an error status carries, from the shared table of codes. */
function codesOf(status: number): ErrorCode[] {
  return errorCodes.filter((code) => statusOfCode[code] === status)
}

/** `components.responses`: one per failure status, each the `ApiError` schema. */
export function errorResponseComponents() {
  return Object.fromEntries(
    Object.entries(errorResponses).map(([status, { name, text }]) => {
      const codes = codesOf(Number(status)).map((code) => `\`${code}\``)
      return [
        name,
        {
          description: `${text} Codes: ${codes.join(', ')}.`,
          ...(status === '429' || status === '503' ? { headers: retryAfter } : {}),
          content: { 'application/json': { schema: resolver(apiErrorSchema, { options: { io: 'output' } }) } },
        },
      ]
    }),
  )
}

export function errorRef(status: ErrorStatus) {
  return { $ref: `#/components/responses/${errorResponses[status].name}` }
}

/** A JSON answer described by a schema made with `answer` (schemas.ts), as the server writes it: zod's output. */
export function json(schema: z.ZodMiniType, description: string) {
  return {
    description,
    content: { 'application/json': { schema: resolver(schema, { options: { io: 'output' } }) } },
  }
}

/** A file in a body (a request's or an answer's), of the media types listed. */
export function file(types: readonly string[], description: string) {
  return {
    description,
    content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'string' as const, format: 'binary' } }])),
  }
}

/** An HTML form's body (`application/x-www-form-urlencoded`): its text fields and which are required. */
export function form(fields: Record<string, string>, required: string[], description: string) {
  const properties = Object.fromEntries(
    Object.entries(fields).map(([name, about]) => [name, { type: 'string' as const, description: about }]),
  )
  return {
    description,
    required: true,
    content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' as const, properties, required } } },
  }
}

/** A multipart body (`multipart/form-data`): a file and text fields, with which are required. */
export function multipart(fields: Record<string, 'file' | 'text'>, required: string[], description: string) {
  const properties = Object.fromEntries(
    Object.entries(fields).map(([name, kind]) => [name, kind === 'file' ? { type: 'string' as const, format: 'binary' } : { type: 'string' as const }]),
  )
  return {
    description,
    required: true,
    content: { 'multipart/form-data': { schema: { type: 'object' as const, properties, required } } },
  }
}

/** A successful answer: a description, and its JSON (`json()`) or file (`file()`) and headers if any. */
interface Answer {
  description: string
  content?: ReturnType<typeof json>['content'] | ReturnType<typeof file>['content']
  headers?: Record<string, { description: string; schema: { type: 'string' | 'integer' } }>
}

type Access = 'public' | 'user' | 'admin'

export interface RouteDescription {
  summary: string
  description?: string
  tags: string[]
  /** Who may call it: a user is signed in (401 otherwise), an admin also has the role (403). */
  access: Access
  /** The successful answers, by status. */
  responses: Record<number, Answer>
  /**
   * Failures besides the ones every route shares (400/413/415 of a body or query, 401/403 of its
   * access, 500): e.g. 404, 409, or 503 where the database is read.
   */
  errors?: ErrorStatus[]
  /** A stable name for generated clients. */
  operationId: string
  /** A body that is not JSON (a file, a form): JSON bodies are documented by their validator. */
  requestBody?: (ReturnType<typeof file> & { required: boolean }) | ReturnType<typeof form> | ReturnType<typeof multipart>
  /** Request headers the route reads (query parameters are documented by their validator). */
  headers?: { name: string; description: string }[]
}

/** Documents a route (a middleware that does nothing at run time). */
export function describe(route: RouteDescription) {
  const failures: ErrorStatus[] = [
    ...(route.access === 'public' ? [] : [401 as const]),
    ...(route.access === 'admin' ? [403 as const] : []),
    ...(route.errors ?? []),
    500,
  ]
  const spec: DescribeRouteOptions = {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: route.tags,
    ...(route.requestBody ? { requestBody: route.requestBody } : {}),
    ...(route.headers
      ? { parameters: route.headers.map(({ name, description }) => ({ in: 'header' as const, name, description, required: false, schema: { type: 'string' as const } })) }
      : {}),
    security: route.access === 'public' ? [] : [{ [SESSION_SCHEME]: [] }],
    responses: {
      ...route.responses,
      ...Object.fromEntries(failures.map((status) => [status, errorRef(status)])),
    },
  }
  return describeRoute(spec)
}

/** Leaves a route out of the document (the document itself, the reference page). */
export const undocumented = describeRoute({ hide: true })
