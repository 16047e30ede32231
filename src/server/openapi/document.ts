import { createHash } from 'node:crypto'
import {
  freshSessionMiddleware,
  requestOnlySessionMiddleware,
  sensitiveSessionMiddleware,
  sessionMiddleware,
} from 'better-auth/api'
import type { BetterAuthOptions } from 'better-auth'
import type { Context, Hono } from 'hono'
import { generateSpecs } from 'hono-openapi'
import type { Auth } from '../auth/auth.js'
import type { Config } from '../config.js'
import type { AppEnv } from '../http/context.js'
import {
  type ErrorStatus,
  SESSION_SCHEME,
  errorRef,
  errorResponseComponents,
  errorResponses,
} from './describe.js'

/**
 * `/api/openapi.json`: the app's routes as their validators and `describe` calls document them
 * (hono-openapi reads them from the router), and better-auth's endpoints under `/api/auth` from its
 * openAPI plugin, in the API's error shape and session cookie. Built once, on the first request.
 */

type Document = Awaited<ReturnType<typeof generateSpecs>>
type Operation = Record<string, unknown> & {
  summary?: string
  tags?: string[]
  security?: Record<string, string[]>[]
  parameters?: { in?: string; $ref?: string }[]
  requestBody?: unknown
  responses?: Record<string, unknown>
}
type PathItem = Partial<Record<string, Operation>>

const tags = [
  { name: 'System', description: 'Liveness, readiness, the client’s configuration and error reports.' },
  { name: 'Account', description: 'The signed-in user and their learning profile.' },
  { name: 'Language levels', description: 'Public reads; changes by administrators, recorded in the audit log.' },
  { name: 'Audit log', description: 'Administrative changes, newest first (administrators only).' },
  { name: 'Demo', description: 'The endpoints behind the `/fetching` and `/fetching-post` demo pages.' },
  { name: 'Auth', description: 'better-auth: registration, sign-in, sessions, account changes.' },
  { name: 'Auth: email codes', description: 'Sign-in with a 6-digit code sent by email.' },
  { name: 'Auth: two-factor', description: 'Authenticator (TOTP) codes and backup codes.' },
]

/** better-auth's tags (its plugins' ids) as the document's. */
const authTags: Record<string, string> = {
  Default: 'Auth',
  'Email-otp': 'Auth: email codes',
  'Two-factor': 'Auth: two-factor',
}

const description = `The HTTP API of the app: JSON under \`/api\`.

- **Errors**: every failure is \`{ "error": { "code", "message", "fields"? } }\` (the \`ApiError\`
  schema) with the status of its code; \`fields\` maps a field to its messages.
- **Sessions**: better-auth's HttpOnly session cookie, set by the sign-in endpoints under
  \`/api/auth\`. A browser sends it by itself, so "Try it out" works on this page once signed in
  to the app in the same browser.
- **Cross-site writes** are refused (403): a state-changing request that carries an \`Origin\`
  must come from the app's own origin.
- **Bodies** are JSON (415 otherwise) of at most 64 KiB (413). The auth endpoints are rate-limited
  per client address (429 with \`Retry-After\`).`

/** The middlewares by which better-auth's endpoints require a session. */
const sessionMiddlewares = new Set<unknown>([
  sessionMiddleware,
  sensitiveSessionMiddleware,
  freshSessionMiddleware,
  requestOnlySessionMiddleware,
])

export async function buildOpenApiDocument(
  app: Hono<AppEnv>,
  auth: Auth,
  config: Config,
): Promise<Document> {
  const context = await auth.$context
  const document = await generateSpecs(app, {
    documentation: {
      info: { title: `${config.appName} API`, version: config.version, description },
      tags,
      components: {
        securitySchemes: {
          [SESSION_SCHEME]: {
            type: 'apiKey',
            in: 'cookie',
            name: context.authCookies.sessionToken.name,
            description: 'The session cookie that signing in sets (HttpOnly, SameSite=Lax).',
          },
        },
        responses: errorResponseComponents(),
      },
    },
    // Every route of the router, so that one nobody described is noticed (`checkDescribed`).
    includeEmptyPaths: true,
    excludeStaticFile: false,
    // Failures are added below in the API's error shape, not the validator's.
    defaultValidationErrorResponse: false,
  })
  const paths = document.paths as Record<string, PathItem>
  checkDescribed(paths)
  for (const operation of operations(paths)) addInputFailures(operation)

  const authDocument = await auth.api.generateOpenAPISchema()
  const sessionOptions: BetterAuthOptions['session'] = context.options.session
  const authPaths = authOperations(auth, authDocument.paths as Record<string, PathItem>, {
    basePath: context.options.basePath,
    // better-auth lists POST /get-session, but answers it with 405 unless this option is on.
    unserved: sessionOptions?.deferSessionRefresh ? [] : ['post /get-session'],
  })
  for (const path of Object.keys(authPaths)) {
    if (path in paths) throw new Error(`OpenAPI: ${path} is both an app route and a better-auth endpoint`)
  }
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>
  for (const [name, schema] of Object.entries(authDocument.components.schemas)) {
    if (name in schemas) throw new Error(`OpenAPI: two schemas are named ${name}`)
    schemas[name] = schema
  }
  return {
    ...document,
    paths: { ...paths, ...authPaths },
    components: { ...document.components, schemas },
  } as Document
}

function* operations(paths: Record<string, PathItem>): Generator<Operation> {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) if (operation) yield operation
  }
}

/** A route of the router that `describe` did not document would be listed with no summary. */
function checkDescribed(paths: Record<string, PathItem>) {
  const missing = Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation && !operation.summary)
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  )
  if (missing.length > 0) {
    throw new Error(`OpenAPI: routes without describe(): ${missing.join(', ')}`)
  }
}

/** The failures of a validated input: 400 for a bad body or query, 413/415 for a body. */
function addInputFailures(operation: Operation) {
  const statuses: ErrorStatus[] = []
  if (operation.requestBody) statuses.push(400, 413, 415)
  else if (operation.parameters?.some((parameter) => parameter.in === 'query')) statuses.push(400)
  setFailures(operation, statuses)
}

function setFailures(operation: Operation, statuses: ErrorStatus[]) {
  const responses = { ...operation.responses }
  for (const status of statuses) responses[status] = errorRef(status)
  // In order of status, as a reader looks for them.
  operation.responses = Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)),
  )
}

/**
 * better-auth's endpoints, as the app serves them: under its base path, GET and POST only (the
 * methods app.ts hands to it), its failures in the API's error shape (the app rewrites them,
 * auth/errors.ts), the session cookie where an endpoint requires a session. Its generator leaves
 * out the `disabledPaths` (the admin plugin's endpoints, the plugin's own document and page).
 */
function authOperations(
  auth: Auth,
  authPaths: Record<string, PathItem>,
  options: { basePath: string; unserved: string[] },
) {
  const needSession = new Set(
    Object.values(auth.api as Record<string, { path?: string; options?: { use?: unknown[] } }>)
      .filter((endpoint) => endpoint.options?.use?.some((middleware) => sessionMiddlewares.has(middleware)))
      .map((endpoint) => endpoint.path),
  )
  const result: Record<string, PathItem> = {}
  const operationIds = new Set(
    Object.values(authPaths).flatMap((item) => Object.values(item).map((operation) => operation?.operationId)),
  )
  for (const [path, item] of Object.entries(authPaths)) {
    const served: PathItem = {}
    for (const method of ['get', 'post'] as const) {
      const operation = item[method]
      if (!operation || options.unserved.includes(`${method} ${path}`)) continue
      const betterAuthPath = path.replace(/\{(\w+)\}/g, ':$1')
      const session = needSession.has(betterAuthPath)
      const failures = Object.keys(operation.responses ?? {})
        .map(Number)
        .filter((status): status is ErrorStatus => status >= 400 && status in errorResponses)
      const successes = Object.entries(operation.responses ?? {}).filter(([status]) => Number(status) < 400)
      // Only the OAuth callback has none: it redirects, to the callback URL or the error page.
      if (successes.length === 0) successes.push(['302', { description: 'Redirects to where the flow goes on.' }])
      const answer: Operation = {
        ...operation,
        tags: [authTags[operation.tags?.[0] ?? 'Default'] ?? `Auth: ${operation.tags?.[0]}`],
        security: session ? [{ [SESSION_SCHEME]: [] }] : [],
        responses: Object.fromEntries(successes),
      }
      // A name for generated clients where better-auth gives none: `POST /two-factor/enable` →
      // `twoFactorEnable` (`…Get`/`…Post` when both methods share a path).
      if (typeof answer.operationId !== 'string') {
        let id = camelCase(path)
        if (operationIds.has(id) || (item.get && item.post)) id += method === 'get' ? 'Get' : 'Post'
        operationIds.add(id)
        answer.operationId = id
      }
      // better-auth's descriptions are one line: the summary a reader scans for.
      if (!answer.summary) {
        answer.summary = typeof operation.description === 'string' && operation.description
          ? operation.description
          : summaryOf(method, path)
        delete answer.description
      }
      // Rate-limited like every auth endpoint; a write's body is checked like every other.
      const extra: ErrorStatus[] = method === 'post' ? [400, 403, 413, 415, 429] : [429]
      setFailures(answer, [...new Set([...failures, ...extra])])
      served[method] = answer
    }
    if (Object.keys(served).length > 0) result[`${options.basePath}${path}`] = served
  }
  return result
}

function camelCase(path: string): string {
  return path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('')
}

/** A short name for an endpoint better-auth leaves without one: `POST /sign-in/email` → "Sign in email". */
function summaryOf(method: string, path: string): string {
  const words = path.replace(/[{}]/g, '').split(/[/-]/).filter(Boolean).join(' ')
  const text = words || method
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** Serves the document: built on the first request, then kept (it changes only with the code). */
export function openApiDocumentHandler(app: Hono<AppEnv>, auth: Auth, config: Config) {
  let built: Promise<{ body: string; etag: string }> | undefined
  const build = async () => {
    const body = JSON.stringify(await buildOpenApiDocument(app, auth, config))
    return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` }
  }
  return async (c: Context<AppEnv>) => {
    built ??= build()
    let document: { body: string; etag: string }
    try {
      document = await built
    } catch (error) {
      // A failure is a bug to see in the log, not an answer to keep.
      built = undefined
      throw error
    }
    c.header('Cache-Control', 'no-cache')
    c.header('ETag', document.etag)
    if (c.req.header('if-none-match') === document.etag) return c.body(null, 304)
    c.header('Content-Type', 'application/json; charset=utf-8')
    return c.body(document.body)
  }
}
