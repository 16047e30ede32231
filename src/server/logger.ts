import type { BetterAuthOptions } from 'better-auth'
import pino, { type Logger, type LoggerOptions } from 'pino'
import { errorChain } from './error-chain'

/** Paths whose values never reach the log. */
export const redactPaths = [
  'password',
  '*.password',
  'newPassword',
  '*.newPassword',
  'currentPassword',
  '*.currentPassword',
  'token',
  '*.token',
  'otp',
  '*.otp',
  'secret',
  '*.secret',
  'totpURI',
  '*.totpURI',
  'backupCodes',
  '*.backupCodes',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
]

const CENSOR = '[redacted]'

/** Query parameters whose values sign someone in or prove who they are (emailed links, callbacks). */
const secretParameter = /^[\w.-]*(token|code|otp|secret|password|key|signature|state)[\w.-]*$/i

/**
 * Path segments that are credentials: better-auth's reset link carries its token in the path
 * (`/api/auth/reset-password/<token>`), and any future route of that kind would too.
 */
const secretPathSegment = /(\/reset-password\/)[^/?#\s"']+/g

/**
 * The URL or path with the values of credential-like query parameters and path segments replaced,
 * so that a request line, a redirect target or a library's message never carries a working token.
 * Runs on every request line: a plain string check first, the rewriting only when there is
 * something to rewrite.
 */
function redactUrlSecrets(text: string): string {
  let result = text
  if (result.includes('/reset-password/')) result = result.replace(secretPathSegment, `$1${CENSOR}`)
  if (result.includes('=')) {
    result = result.replace(/([?&;]|\b)([\w.-]+)=([^&\s"'#;,]*)/g, (whole, separator: string, name: string) =>
      secretParameter.test(name) ? `${separator}${name}=${CENSOR}` : whole,
    )
  }
  return result
}

interface LoggedRequest {
  path?: unknown
  url?: unknown
}

/** The request of the request log (`req: { method, path }`): its path without credentials. */
function serializeRequest(req: unknown): unknown {
  if (typeof req !== 'object' || req === null) return req
  const { path, url } = req as LoggedRequest
  const safePath = typeof path === 'string' ? redactUrlSecrets(path) : path
  const safeUrl = typeof url === 'string' ? redactUrlSecrets(url) : url
  // The usual line has nothing to hide: logged as it is, without a copy.
  if (safePath === path && safeUrl === url) return req
  return { ...req, path: safePath, url: safeUrl }
}

/**
 * A copy of the error (and of its causes) without the parameters of a failed query: drizzle's
 * `DrizzleQueryError` puts them in its message, its stack and `params`, and they are the values
 * the query looked for — session tokens, reset tokens, password hashes.
 */
function withoutQueryParameters(error: unknown, seen = new Set<unknown>()): unknown {
  if (!(error instanceof Error) || seen.has(error)) return error
  seen.add(error)
  const cause = withoutQueryParameters(error.cause, seen)
  const hasParameters = 'params' in error && error.params !== undefined
  if (!hasParameters && cause === error.cause) return error
  // Same prototype: the serializer still names the error's type.
  const copy = Object.assign(Object.create(Object.getPrototypeOf(error) as object) as Error, error)
  const scrub = (text: string | undefined) => text?.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, `\nparams: ${CENSOR}`)
  copy.message = (hasParameters ? scrub(error.message) : error.message) ?? ''
  const stack = hasParameters ? scrub(error.stack) : error.stack
  if (stack !== undefined) copy.stack = stack
  if (hasParameters) Object.assign(copy, { params: CENSOR })
  if (cause !== error.cause) copy.cause = cause
  return copy
}

function serializeError(error: unknown): unknown {
  return pino.stdSerializers.err(withoutQueryParameters(error) as Error)
}

export function createLogger(options: {
  level: string
  pretty: boolean
  /** Where the JSON lines go instead of stdout (the API tests that run the app in their process keep them). */
  destination?: pino.DestinationStream
}): Logger {
  const settings: LoggerOptions = {
    level: options.level,
    base: undefined,
    redact: { paths: redactPaths, censor: CENSOR },
    serializers: { req: serializeRequest, err: serializeError },
    hooks: {
      // Messages are free text (a library's "Invalid callbackURL: …"): the same URL rewriting.
      logMethod(args, method) {
        const redacted = args.map((arg) => (typeof arg === 'string' ? redactUrlSecrets(arg) : arg))
        method.apply(this, redacted as Parameters<typeof method>)
      },
    },
    ...(options.pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  }
  if (options.pretty) return pino(settings)
  if (options.destination) return pino(settings, options.destination)
  // Written without blocking the request: a line per request would otherwise cost a synchronous
  // write() each. Lines written while one write is under way go out together with the next; pino
  // flushes what is left when the process exits (not after a kill -9).
  return pino(settings, pino.destination({ dest: 1, sync: false }))
}

type AuthLogLevel = 'debug' | 'info' | 'warn' | 'error'

/** Longest text of a request that a log line repeats (a callback URL, a provider name). */
export const MAX_ECHOED_TEXT = 200

const bounded = (text: string) =>
  text.length > MAX_ECHOED_TEXT ? `${text.slice(0, MAX_ECHOED_TEXT)}… (${text.length} characters)` : text

/** Strings bounded at any depth, for the arguments better-auth logs (`{ provider: <the body's> }`). */
function boundedArgs(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return bounded(value)
  if (typeof value !== 'object' || value === null || depth > 3) return value
  if (Array.isArray(value)) return value.slice(0, 20).map((item) => boundedArgs(item, depth + 1))
  return Object.fromEntries(Object.entries(value).slice(0, 20).map(([key, item]) => [key, boundedArgs(item, depth + 1)]))
}

/**
 * What better-auth reports as an error, with an Error, when the request was at fault: a passkey's
 * answer that fails its checks (another origin, relying party or challenge, no user presence, a
 * counter gone back: @simplewebauthn's errors carry what was sent, a 45 000-character origin
 * included), a provider's callback with a tampered, missing or unreadable state.
 */
const clientRefusals = new Set([
  'Failed to verify authentication',
  'Failed to verify registration',
  'Failed to parse state',
  'State not found',
  'INVALID_CALLBACK_REQUEST',
])

/** A failure of the server's own: the database (drizzle, a driver's SQLSTATE) or the system. */
function isServerFailure(error: unknown): boolean {
  for (const { name, code, severity } of errorChain(error)) {
    if (name === 'DrizzleQueryError' || typeof severity === 'string') return true
    if (typeof code === 'string' && /^(E[A-Z]+|[0-9A-Z]{5})$/.test(code)) return true
  }
  return false
}

/**
 * better-auth's `logger` option: its messages go to this log — JSON, at LOG_LEVEL, through the
 * redaction above — instead of straight to the console, where it prints failed queries with their
 * parameters (session and reset tokens). Errors it passes along are logged as `err`.
 *
 * The log is about the server: better-auth logs the client's mistakes at `error` as well
 * ("Invalid callbackURL: <what was sent>", "State not found", "Provider not found"). An error it
 * reports without an Error — a request it refused — is logged at `warn`; one with an Error (a
 * query that failed, a background task) stays an error, and so does a session it could not
 * create. What the request sent is repeated at most MAX_ECHOED_TEXT characters long. A refusal
 * of the client's that comes with an Error (`clientRefusals`) is a `warn` too, its Error reduced to
 * its name and message, bounded (no stack: nothing of the server went wrong), unless the Error
 * is the server's own failure (a query inside the same step), which stays an error.
 */
export function authLogOptions(logger: Logger): NonNullable<BetterAuthOptions['logger']> {
  const log = logger.child({ component: 'auth' })
  return {
    // Everything is handed over; pino's level decides what is written.
    level: 'debug',
    disableColors: true,
    log(level: AuthLogLevel, message: string, ...args: unknown[]) {
      const errors = args.filter((arg) => arg instanceof Error)
      const others = args.filter((arg) => !(arg instanceof Error))
      const [refusal] = errors
      if (refusal && clientRefusals.has(message) && !isServerFailure(refusal)) {
        log.warn({ refusal: bounded(`${refusal.name}: ${refusal.message}`) }, message)
        return
      }
      const serverSide = errors.length > 0 || /^Failed to create session/.test(message)
      log[level === 'error' && !serverSide ? 'warn' : level](
        {
          ...(errors[0] ? { err: errors[0] } : {}),
          ...(others.length > 0 ? { args: boundedArgs(others) } : {}),
        },
        bounded(message),
      )
    },
  }
}

/** Pretty output only in development, on a terminal, and when pino-pretty is installed. */
export async function wantsPrettyLogs(nodeEnv: string): Promise<boolean> {
  if (nodeEnv !== 'development' || !process.stdout.isTTY) return false
  try {
    await import('pino-pretty')
    return true
  } catch {
    return false
  }
}
