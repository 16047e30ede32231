import { createHash } from 'node:crypto'
import type { Context, Hono } from 'hono'
import { generateSpecs } from 'hono-openapi'
import type { Auth } from '@/server/auth/auth'
import type { Config } from '@/server/config'
import type { AppEnv } from '@/server/http/context'
import { betterAuthDocument } from './auth-operations'
import { type ErrorStatus, SESSION_SCHEME, errorResponseComponents } from './describe'
import { type JsonSchema, type Operation, type PathItem, isSchema, setFailures } from './operation'

/**
 * `/api/openapi.json`: the app's routes as their validators and `describe` calls document them
 * (hono-openapi reads them from the router), and better-auth's endpoints under `/api/auth` from its
 * openAPI plugin, in the API's error shape and session cookie. Built once, on the first request.
 */

type Document = Awaited<ReturnType<typeof generateSpecs>>

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

const description = `The HTTP API of the app: JSON under \`/api\`.

- **Errors**: every failure is \`{ "error": { "code", "message", "fields"? } }\` (the \`ApiError\`
  schema) with the status of its code; \`fields\` maps a field to its messages.
- **Sessions**: better-auth's HttpOnly session cookie, set by the sign-in endpoints under
  \`/api/auth\`. A browser sends it by itself, so "Try it out" works on this page once signed in
  to the app in the same browser.
- **Cross-site writes** are refused (403): a state-changing request that carries an \`Origin\`
  must come from the app's own origin.
- **Bodies** are JSON (415 otherwise) of at most 64 KiB (413). A POST to \`/api/auth\` whose body is
  optional may be sent without one. No text may contain NUL (U+0000): 400 on its field. The auth
  endpoints are rate-limited per client address (429 with \`Retry-After\`).
- **Methods**: a path of this document called with a method it does not list answers 405 with
  \`Allow\`; any other path answers 404.`

async function buildOpenApiDocument(
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
  for (const [method, operation] of methodOperations(paths)) addInputFailures(method, operation)

  const authDocument = await betterAuthDocument(auth, config.providers.length > 0)
  for (const path of Object.keys(authDocument.paths)) {
    if (path in paths) throw new Error(`OpenAPI: ${path} is both an app route and a better-auth endpoint`)
  }
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>
  for (const [name, schema] of Object.entries(authDocument.schemas)) {
    if (name in schemas) throw new Error(`OpenAPI: two schemas are named ${name}`)
    schemas[name] = schema
  }
  const allPaths = { ...paths, ...authDocument.paths }
  for (const operation of operations(allPaths)) refuseNulInInput(operation)
  return {
    ...document,
    paths: allPaths,
    components: { ...document.components, schemas },
  } as Document
}

/** Applies `change` to a schema and every schema inside it (its properties, items, variants). */
function eachSchema(schema: unknown, change: (schema: JsonSchema) => void) {
  if (!isSchema(schema)) return
  change(schema)
  for (const key of ['items', 'additionalProperties', 'not']) eachSchema(schema[key], change)
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const variants = schema[key]
    if (Array.isArray(variants)) for (const variant of variants) eachSchema(variant, change)
  }
  if (isSchema(schema.properties)) for (const property of Object.values(schema.properties)) eachSchema(property, change)
}

/** Text without NUL: the server refuses it in every body and query string (http/body.ts). */
const NUL_FREE = '^[^\\u0000]*$'

/** Documents the refusal of NUL on every string of a request: body, query and path. */
function refuseNulInInput(operation: Operation) {
  const inputs = [
    ...(operation.parameters ?? []).map((parameter) => (parameter as { schema?: unknown }).schema),
    ...Object.values(requestContent(operation)).map((media) => media.schema),
  ]
  for (const input of inputs) {
    eachSchema(input, (node) => {
      const types = [node.type].flat()
      if (!types.includes('string') || node.enum !== undefined || node.const !== undefined) return
      if (typeof node.pattern !== 'string') node.pattern = NUL_FREE
      else node.allOf = [...(Array.isArray(node.allOf) ? (node.allOf as unknown[]) : []), { pattern: NUL_FREE }]
    })
  }
}

function requestContent(operation: Operation): Record<string, { schema?: unknown }> {
  const body = operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined
  return body?.content ?? {}
}

function* operations(paths: Record<string, PathItem>): Generator<Operation> {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) if (operation) yield operation
  }
}

function* methodOperations(paths: Record<string, PathItem>): Generator<[string, Operation]> {
  for (const item of Object.values(paths)) {
    for (const [method, operation] of Object.entries(item)) if (operation) yield [method, operation]
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

/**
 * The failures every request may meet before its route (app.ts, http/body.ts): 400 for a bad
 * query (NUL in any parameter, even one the route does not read), a bad body or a body that
 * stops early; and for a write, 403 when cross-site, 413/415 for any body it carries.
 */
function addInputFailures(method: string, operation: Operation) {
  const statuses: ErrorStatus[] = [400]
  if (['post', 'put', 'patch', 'delete'].includes(method)) statuses.push(403, 413, 415)
  setFailures(operation, statuses)
}

/**
 * The document, built on the first use, then kept (it changes only with the code): served by
 * `handler`, and read by `allowedMethods` to tell a known path called with another method (405).
 */
export function openApiDocument(app: Hono<AppEnv>, auth: Auth, config: Config) {
  let built: Promise<{ body: string; etag: string; paths: [RegExp, string[]][] }> | undefined
  const build = async () => {
    const document = await buildOpenApiDocument(app, auth, config)
    const body = JSON.stringify(document)
    return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, paths: pathMatchers(document) }
  }
  const get = async () => {
    built ??= build()
    try {
      return await built
    } catch (error) {
      // A failure is a bug to see in the log, not an answer to keep.
      built = undefined
      throw error
    }
  }
  return {
    handler: async (c: Context<AppEnv>) => {
      const document = await get()
      c.header('Cache-Control', 'no-cache')
      c.header('ETag', document.etag)
      if (c.req.header('if-none-match') === document.etag) return c.body(null, 304)
      c.header('Content-Type', 'application/json; charset=utf-8')
      return c.body(document.body)
    },
    /** The methods the document lists for a path (`Allow`), or undefined for a path it does not know. */
    allowedMethods: async (path: string): Promise<string[] | undefined> => {
      const { paths } = await get()
      return paths.find(([pattern]) => pattern.test(path))?.[1]
    },
  }
}

/** Each documented path as a pattern (`{id}`: one segment) and its methods, HEAD with GET. */
function pathMatchers(document: Document): [RegExp, string[]][] {
  // A literal path before a template that also matches it (`/order` before `/{id}`).
  const paths = Object.entries(document.paths as Record<string, PathItem>).sort(
    ([a], [b]) => a.split('{').length - b.split('{').length,
  )
  return paths.map(([path, item]) => {
    const pattern = path
      .split(/(\{\w+\})/)
      .map((part) => (/^\{\w+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('')
    const methods = Object.keys(item).map((method) => method.toUpperCase())
    if (methods.includes('GET')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD')
    return [new RegExp(`^${pattern}$`), methods]
  })
}
