import { createHash } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from './context'
import { ApiError } from './errors'

/** SHA-256 CSP sources for every inline `<script>` of an HTML document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    const body = match[1] ?? ''
    if (body.trim() === '') continue
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`)
  }
  return hashes
}

/**
 * The pages' policy: `scriptHashes` are their inline scripts' (`inlineScriptHashes`), `formTargets`
 * the origins a form may lead to besides the app's own — the sign-in providers' pages, where the
 * provider form's answer redirects (browsers apply `form-action` to a form's redirects too).
 */
export function contentSecurityPolicy(scriptHashes: readonly string[], formTargets: readonly string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    // Radix's scroll lock injects a <style> element; scripts stay strict.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    ["form-action 'self'", ...formTargets].join(' '),
    "frame-ancestors 'none'",
  ].join('; ')
}

/**
 * What answers other than HTML pages carry (JSON, files): nothing may load or run, nobody may
 * frame it (OWASP's advice for APIs; also shorter, on the busiest answers).
 */
const NON_DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'"

/** What every answer carries besides its policy, whatever its type. */
const everyAnswer: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
}

const HSTS = 'max-age=31536000; includeSubDomains'

/**
 * The security headers of an answer that is not an HTML page, for answers made outside the app
 * (the HTTP server's own refusals, in node-server.ts).
 */
export function nonDocumentSecurityHeaders(https: boolean): Record<string, string> {
  return {
    'Content-Security-Policy': NON_DOCUMENT_CSP,
    ...everyAnswer,
    ...(https ? { 'Strict-Transport-Security': HSTS } : {}),
  }
}

/**
 * Security headers on every response the app makes. They go straight onto Node's response
 * (`setHeader`, a property each), not into the Fetch `Headers` of the app's answer: those are
 * checked and sorted on every call, and cost a fraction of a cheap JSON read (bench/api.mjs
 * --cpu-prof). Node merges them with the answer's own headers when it writes them; none of the
 * app's routes sets one of these itself (one that did would be sent as it set it).
 */
export function securityHeaders(options: {
  csp: () => string
  https: boolean
  /** Believe X-Forwarded-Proto (TRUST_PROXY): only a balancer in front may say it was https. */
  trustProxy: boolean
}): MiddlewareHandler<AppEnv> {
  const common = Object.entries(everyAnswer)
  return async (c, next) => {
    const { outgoing } = c.env
    for (const [name, value] of common) outgoing.setHeader(name, value)
    outgoing.setHeader('X-Request-Id', c.get('requestId'))
    const forwardedHttps =
      options.trustProxy && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https'
    if (options.https || forwardedHttps) outgoing.setHeader('Strict-Transport-Security', HSTS)
    await next()
    // A 304 has no body and no type, and its headers replace the cached page's: it keeps the page
    // policy, as does any answer that does not say it is something other than HTML.
    const type = c.res.headers.get('content-type')
    const document = type === null || type.startsWith('text/html')
    outgoing.setHeader('Content-Security-Policy', document ? options.csp() : NON_DOCUMENT_CSP)
  }
}

/**
 * An answer under /api is private unless its route says otherwise: it depends on the session, is
 * one person's or an administrator's data, is an error, or is a moment's state (health, a demo's
 * clock); no cache may keep it. On Node's response, as the headers above: a route that says how
 * its answer may be kept (the public reads: levels, can-do statements, pictures, the OpenAPI
 * document and its page) sets its own `Cache-Control`, which Node writes over this one.
 */
export const privateUnlessSaid: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.env.outgoing.setHeader('Cache-Control', 'no-store')
  await next()
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses state-changing requests a browser sent from another site (CSRF, login CSRF): the Origin
 * must be the app's own (APP_URL, or the address the request came to). Requests with no Origin
 * and no Sec-Fetch-Site come from scripts, not from a browser page, and pass.
 */
export function sameOriginWrites(appUrl: string): MiddlewareHandler<AppEnv> {
  const appOrigin = new URL(appUrl).origin
  return async (c, next) => {
    if (safeMethods.has(c.req.method)) return next()
    const origin = c.req.header('origin')
    const site = c.req.header('sec-fetch-site')
    const allowed =
      origin === undefined
        ? site === undefined || site === 'same-origin' || site === 'none'
        : origin === appOrigin || origin === new URL(c.req.url).origin
    if (!allowed) throw new ApiError('forbidden', 'Cross-origin requests are not allowed.')
    return next()
  }
}
