import {
  freshSessionMiddleware,
  requestOnlySessionMiddleware,
  sensitiveSessionMiddleware,
  sessionMiddleware,
} from 'better-auth/api'
import type { BetterAuthOptions } from 'better-auth'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@/shared/auth'
import type { Auth } from '@/server/auth/auth'
import { profilePaths } from '@/server/auth/hooks'
import { unservedAuthPaths } from '@/server/auth/unserved'
import { EMAIL_MAX_LENGTH, authEmailFields } from '@/server/http/body'
import { type ErrorStatus, SESSION_SCHEME, errorResponses } from './describe'
import { type JsonSchema, type Operation, type PathItem, isSchema, setFailures } from './operation'

/** better-auth's tags (its plugins' ids) as the document's. */
const authTags: Record<string, string> = {
  Default: 'Auth',
  'Email-otp': 'Auth: email codes',
  'Two-factor': 'Auth: two-factor',
}

/** The middlewares by which better-auth's endpoints require a session. */
const sessionMiddlewares = new Set<unknown>([
  sessionMiddleware,
  sensitiveSessionMiddleware,
  freshSessionMiddleware,
  requestOnlySessionMiddleware,
])

/**
 * better-auth's part of the document: its endpoints as the app serves them (`authOperations`) and
 * its models (`authModel`), from its openAPI plugin.
 */
export async function betterAuthDocument(auth: Auth, providersConfigured: boolean) {
  const context = await auth.$context
  const authDocument = await auth.api.generateOpenAPISchema()
  const sessionOptions: BetterAuthOptions['session'] = context.options.session
  const authPaths = authOperations(auth, authDocument.paths as Record<string, PathItem>, {
    basePath: context.options.basePath,
    // better-auth lists POST /get-session, but answers it with 405 unless this option is on.
    unserved: [
      ...(sessionOptions?.deferSessionRefresh ? [] : ['post /get-session']),
      ...unservedAuthPaths(providersConfigured).flatMap((path) => [`get ${path}`, `post ${path}`]),
    ],
  })
  const schemas = Object.fromEntries(
    Object.entries(authDocument.components.schemas).map(([name, schema]) => [name, authModel(name, schema)]),
  )
  return { paths: authPaths, schemas }
}

/** A schema that also allows null, in OpenAPI 3.1's terms (JSON Schema has no `nullable`). */
function allowNull(schema: JsonSchema) {
  delete schema.nullable
  if (typeof schema.$ref === 'string') {
    // A `type` beside the `$ref` (better-auth writes `object`) would refuse the null.
    const { $ref, ...rest } = schema
    delete rest.type
    for (const key of Object.keys(schema)) delete schema[key]
    Object.assign(schema, rest, { anyOf: [{ $ref }, { type: 'null' }] })
    return
  }
  if (typeof schema.type === 'string') schema.type = [schema.type, 'null']
  else if (Array.isArray(schema.type) && !schema.type.includes('null')) schema.type = [...(schema.type as unknown[]), 'null']
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...(schema.enum as unknown[]), null]
}

/** better-auth writes OpenAPI 3.0's `nullable: true`, which a 3.1 document ignores: anywhere in `value`. */
function nullableAs31(value: unknown) {
  if (Array.isArray(value)) {
    for (const item of value) nullableAs31(item)
    return
  }
  if (!isSchema(value)) return
  for (const child of Object.values(value)) nullableAs31(child)
  if (value.nullable === true) allowNull(value)
  else if ('nullable' in value && typeof value.nullable === 'boolean') delete value.nullable
}

/** The `token` fields the app strips from better-auth's answers (auth/session-tokens.ts). */
function withoutToken(schema: unknown) {
  if (!isSchema(schema)) return
  if (isSchema(schema.properties)) {
    delete schema.properties.token
    if (Array.isArray(schema.required)) schema.required = schema.required.filter((name) => name !== 'token')
    withoutToken(schema.properties.session)
  }
  withoutToken(schema.items)
}

/**
 * better-auth's models (User, Session…) as its answers carry them: a field that is not required
 * is a column that may be null (`impersonatedBy`, `image`), and a session has no token here.
 */
function authModel(name: string, schema: JsonSchema): JsonSchema {
  nullableAs31(schema)
  const required = new Set(Array.isArray(schema.required) ? schema.required : [])
  if (isSchema(schema.properties)) {
    for (const [field, property] of Object.entries(schema.properties)) {
      if (!required.has(field) && isSchema(property)) allowNull(property)
    }
  }
  if (name === 'Session') withoutToken(schema)
  return schema
}

/** The password fields better-auth checks against its length bounds (emailAndPassword). */
const checkedPasswords: Record<string, string> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
  '/email-otp/reset-password': 'password',
}

/**
 * What better-auth's generator leaves out of a request body: the body is required when it has
 * required fields (else it may be left out: app.ts reads none as `{}`), emails are emails (app.ts
 * checks them on every auth endpoint), and a new password's length bounds.
 */
function authRequest(path: string, operation: Operation) {
  const body = operation.requestBody as { required?: boolean; content?: Record<string, { schema?: unknown }> } | undefined
  if (!body) return
  const schema = body.content?.['application/json']?.schema
  if (!isSchema(schema)) return
  // better-auth refuses an update without a change (400 "No fields to update").
  if (path === '/update-user') schema.minProperties = 1
  body.required = (Array.isArray(schema.required) && schema.required.length > 0) || schema.minProperties === 1
  const properties = isSchema(schema.properties) ? schema.properties : {}
  // A picture is uploaded (PUT /api/me/avatar), never set here (auth/hooks.ts refuses `image`).
  if (profilePaths.has(path)) delete properties.image
  for (const [name, property] of Object.entries(properties)) {
    if (!isSchema(property) || property.type !== 'string') continue
    if (authEmailFields.includes(name)) Object.assign(property, { format: 'email', maxLength: EMAIL_MAX_LENGTH })
    if (checkedPasswords[path] === name) {
      Object.assign(property, { minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
    }
  }
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
  /** better-auth's GET endpoints that also answer by redirecting, which its own document omits. */
  const redirectsOf: Record<string, string> = {
    // In production its error page redirects to the app (`/?error=…`) instead.
    '/error': 'In production: redirects to the app, `/?error=<code>`.',
    '/reset-password/{token}': 'Redirects to `callbackURL` with the token, or with `?error=INVALID_TOKEN`.',
    '/verify-email': 'With a `callbackURL`: redirects there, with `?error=<code>` when the token is refused.',
  }
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
      const redirect = redirectsOf[path]
      if (redirect) successes.push(['302', { description: redirect }])
      nullableAs31(operation)
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) < 300) {
          const content = (response as { content?: Record<string, { schema?: unknown }> }).content ?? {}
          for (const media of Object.values(content)) withoutToken(media.schema)
        }
      }
      authRequest(path, operation)
      answeredAs(path, operation)
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
      // All but the two static ones may need the database (503 while it is unreachable).
      const extra: ErrorStatus[] = method === 'post' ? [400, 403, 413, 415, 429] : [429]
      if (path !== '/ok' && path !== '/error') extra.push(503)
      extra.push(...(appFailures[path] ?? []))
      setFailures(answer, [...new Set([...failures, ...extra])])
      served[method] = answer
    }
    if (Object.keys(served).length > 0) result[`${options.basePath}${path}`] = served
  }
  return result
}

/**
 * Failures the app's hooks add to better-auth's endpoints (auth/sign-in-methods.ts): the last way to
 * sign in is not removed (409), a passkey that is not the caller's is not found (404); the last
 * administrator does not delete their account (409, auth/hooks.ts).
 */
const appFailures: Record<string, ErrorStatus[]> = {
  '/delete-user': [409],
  '/unlink-account': [409],
  '/passkey/delete-passkey': [404, 409],
  '/passkey/update-passkey': [404],
}

/** The answer to a sign-in that two-factor authentication holds back (auth/plugins.ts, `twoFactorOnEverySignIn`). */
const twoFactorChallenge: JsonSchema = {
  type: 'object',
  description: 'Two-factor authentication is on: no session yet; verify a second factor under `/two-factor`.',
  properties: {
    twoFactorRedirect: { const: true },
    twoFactorMethods: { type: 'array', items: { type: 'string', enum: ['totp', 'otp'] } },
  },
  required: ['twoFactorRedirect', 'twoFactorMethods'],
}

/**
 * Where better-auth's document differs from what its endpoints answer here (found by checking
 * every answer of the API tests against the document, tests/helpers/api-setup.ts).
 */
const answerCorrections: Record<string, (success: JsonSchema) => void> = {
  // Both sign-ins answer the challenge instead of a session when the account has two-factor on.
  '/sign-in/email': (success) => offerChallenge(success),
  '/sign-in/email-otp': (success) => offerChallenge(success),
  // `user` is null unless the verification signs the user in (a session already open, or none made).
  '/verify-email': (success) => {
    if (isSchema(success.properties) && isSchema(success.properties.user)) allowNull(success.properties.user)
  },
  // It answers the signed-in user (and the session token, stripped here), never a `session`.
  '/two-factor/verify-backup-code': (success) => {
    if (isSchema(success.properties)) delete success.properties.session
    if (Array.isArray(success.required)) success.required = success.required.filter((name) => name !== 'session')
  },
}

function offerChallenge(success: JsonSchema) {
  const answer = { ...success }
  for (const key of Object.keys(success)) delete success[key]
  success.anyOf = [answer, twoFactorChallenge]
}

function answeredAs(path: string, operation: Operation) {
  const correct = answerCorrections[path]
  const success = (operation.responses?.['200'] as { content?: Record<string, { schema?: unknown }> } | undefined)
    ?.content?.['application/json']?.schema
  if (correct && isSchema(success)) correct(success)
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
