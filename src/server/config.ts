import path from 'node:path'
import { z } from 'zod'

const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value

const url = (protocols: readonly string[]) =>
  z.url().refine((value) => protocols.some((p) => value.startsWith(`${p}:`)), {
    message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
  })

/** `true`/`1` or `false`/`0`, false when unset. */
const flag = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((value) => value === 'true' || value === '1')

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z.preprocess(emptyToUndefined, url(['postgres', 'postgresql']).optional()),
  DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: z.preprocess(emptyToUndefined, url(['redis', 'rediss']).optional()),
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('lingua:'),
  SMTP_URL: z.preprocess(emptyToUndefined, url(['smtp', 'smtps']).optional()),
  MAIL_FROM: z.string().min(3).default('Lingua <no-reply@localhost>'),
  APP_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  APP_NAME: z.string().min(1).max(60).default('Lingua'),
  ADMIN_EMAILS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .optional()
      .transform((value) =>
        value === undefined
          ? undefined
          : value
              .split(',')
              .map((email) => email.trim().toLowerCase())
              .filter(Boolean),
      )
      .pipe(z.array(z.email()).optional()),
  ),
  AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(32).optional()),
  /** Behind a load balancer: take the client address from X-Forwarded-For (its last entry). */
  TRUST_PROXY: flag,
  /** Multiplies every auth rate limit; tests that make many accounts raise it. */
  AUTH_RATE_LIMIT_SCALE: z.coerce.number().min(0.01).max(10_000).default(1),
  /** Multiplies the limits per account (picture uploads, copies of one's data). */
  ACCOUNT_RATE_LIMIT_SCALE: z.coerce.number().min(0.01).max(10_000).default(1),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * One `request` line at info for every answer: off by default (a line per request is the
   * balancer's access log's job). Errors and answers slower than SLOW_REQUEST_MS are logged
   * whatever this says.
   */
  LOG_REQUESTS: flag,
  SLOW_REQUEST_MS: z.coerce.number().int().min(1).max(600_000).default(1000),
  CLIENT_DIR: z.string().min(1).default('./dist/client'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * On SIGTERM, how long the server goes on taking connections while `/api/ready` answers 503, so
   * that a load balancer stops sending before the connections close.
   */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  /**
   * How long an instance holds an import it runs without renewing its claim: after a crash,
   * another instance takes the import over once this has passed. Tests shorten it.
   */
  IMPORT_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * The heap (MB) the process that plans an Anki import may take: past it the package is refused as
   * too large, and the server goes on. A history of a million reviews plans within the default.
   */
  IMPORT_PLANNER_HEAP_MB: z.coerce.number().int().min(16).max(16_384).default(256),
  /**
   * How often each instance looks for the daily practice reminders due (a reminder goes within 5
   * minutes of its hour): every minute. Tests that sweep by hand lengthen it.
   */
  REMINDER_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * How long a session is served from its signed cache cookie: the bound within which a revoked
   * session is refused everywhere. Tests shorten it rather than wait a minute.
   */
  SESSION_CACHE_SECONDS: z.coerce.number().int().min(1).max(300).default(60),
  /**
   * How long one email of a kind (confirmation, sign-in code, reset…) holds its address: another
   * is refused until then. Tests shorten it rather than wait a minute.
   */
  MAIL_THROTTLE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Open live streams (`GET /api/events`) per session, counted by every instance (with Redis). */
  LIVE_STREAMS_PER_SESSION: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Open live streams per client address of visitors (no session). */
  LIVE_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(50),
  /** An OpenID Connect provider (discovery at `{OIDC_ISSUER}/.well-known/openid-configuration`). */
  OIDC_ISSUER: z.preprocess(emptyToUndefined, url(['https', 'http']).optional()),
  OIDC_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().min(1).max(500).optional()),
  OIDC_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().min(1).max(2000).optional()),
  /** The button says "Continue with {OIDC_NAME}". */
  OIDC_NAME: z.preprocess(emptyToUndefined, z.string().min(1).max(40).optional()),
  OIDC_SCOPES: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('openid email profile')
      .transform((value) => value.split(/[\s,]+/).filter(Boolean))
      .refine((scopes) => scopes.includes('openid'), { message: 'must include openid' }),
  ),
  GITHUB_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().min(1).max(500).optional()),
  GITHUB_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().min(1).max(2000).optional()),
  GOOGLE_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().min(1).max(500).optional()),
  GOOGLE_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().min(1).max(2000).optional()),
  /** The longest the server waits for a provider during a sign-in; then the person is told. */
  OIDC_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(10_000),
})

/** Variables that are set together or not at all. */
const variableGroups = [
  ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'],
  ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'],
  ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
] as const

/** A provider people sign in with; `issuer` for OpenID Connect discovery, else a preset. */
export interface ProviderConfig {
  id: 'oidc' | 'github' | 'google'
  name: string
  clientId: string
  clientSecret: string
  issuer?: string
  scopes?: string[]
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test'
  port: number
  host: string
  databaseUrl: string | undefined
  dataDir: string
  redisUrl: string | undefined
  /** Every Redis key starts with it, so that several apps (or test runs) can share a server. */
  redisKeyPrefix: string
  smtpUrl: string | undefined
  mailFrom: string
  appUrl: string
  appName: string
  adminEmails: string[] | undefined
  /** Signs sessions and tokens; unset: made once and kept in the database. */
  authSecret: string | undefined
  trustProxy: boolean
  authRateLimitScale: number
  accountRateLimitScale: number
  logLevel: string
  /** Every answer in the log at info (operators turn it on); errors and slow answers always. */
  logRequests: boolean
  /** An answer that took longer is logged (warn) even with logRequests off. */
  slowRequestMs: number
  clientDir: string
  shutdownTimeoutMs: number
  /** On SIGTERM, connections are still taken this long, with readiness 503. */
  shutdownDelayMs: number
  importLeaseSeconds: number
  importPlannerHeapMb: number
  reminderSweepSeconds: number
  /** A revoked session can still be used for at most this long (better-auth's cookie cache). */
  sessionCacheSeconds: number
  /** How long an email of a kind holds its address (the mail throttle's window). */
  mailThrottleSeconds: number
  liveStreamsPerSession: number
  liveStreamsPerAddress: number
  /** Configured sign-in providers, in button order (none: no buttons, endpoints 404). */
  providers: ProviderConfig[]
  /** How long a sign-in waits for a provider before telling the person. */
  providerTimeoutMs: number
  version: string
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** Parses the environment once, with defaults that make `npm start` work with nothing set. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  version = '0.0.0',
): Config {
  const result = envSchema.safeParse(env)
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? '?')
        // A secret is never printed, even when it is wrong.
        const got = /SECRET/.test(name) ? undefined : env[name]
        return `${name}: ${issue.message}${got === undefined ? '' : ` (got ${JSON.stringify(redactUrl(got))})`}`
      }),
    )
  }
  const e = result.data
  const incomplete = variableGroups.flatMap((group) => {
    const missing = group.filter((name) => e[name] === undefined)
    return missing.length > 0 && missing.length < group.length
      ? [`${missing.join(', ')}: must be set with ${group.filter((name) => !missing.includes(name)).join(', ')}`]
      : []
  })
  if (incomplete.length > 0) throw new ConfigError(incomplete)
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    appName: e.APP_NAME,
    adminEmails: e.ADMIN_EMAILS,
    authSecret: e.AUTH_SECRET,
    trustProxy: e.TRUST_PROXY,
    authRateLimitScale: e.AUTH_RATE_LIMIT_SCALE,
    accountRateLimitScale: e.ACCOUNT_RATE_LIMIT_SCALE,
    logLevel: e.LOG_LEVEL,
    logRequests: e.LOG_REQUESTS,
    slowRequestMs: e.SLOW_REQUEST_MS,
    clientDir: path.resolve(e.CLIENT_DIR),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
    importLeaseSeconds: e.IMPORT_LEASE_SECONDS,
    importPlannerHeapMb: e.IMPORT_PLANNER_HEAP_MB,
    reminderSweepSeconds: e.REMINDER_SWEEP_SECONDS,
    sessionCacheSeconds: e.SESSION_CACHE_SECONDS,
    mailThrottleSeconds: e.MAIL_THROTTLE_SECONDS,
    liveStreamsPerSession: e.LIVE_STREAMS_PER_SESSION,
    liveStreamsPerAddress: e.LIVE_STREAMS_PER_ADDRESS,
    providers: providersOf(e),
    providerTimeoutMs: e.OIDC_TIMEOUT_MS,
    version,
  }
}

function providersOf(e: z.infer<typeof envSchema>): ProviderConfig[] {
  const providers: ProviderConfig[] = []
  if (e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET) {
    providers.push({
      id: 'oidc',
      name: e.OIDC_NAME ?? new URL(e.OIDC_ISSUER).hostname,
      clientId: e.OIDC_CLIENT_ID,
      clientSecret: e.OIDC_CLIENT_SECRET,
      issuer: e.OIDC_ISSUER.replace(/\/+$/, ''),
      scopes: e.OIDC_SCOPES,
    })
  }
  if (e.GITHUB_CLIENT_ID && e.GITHUB_CLIENT_SECRET) {
    providers.push({ id: 'github', name: 'GitHub', clientId: e.GITHUB_CLIENT_ID, clientSecret: e.GITHUB_CLIENT_SECRET })
  }
  if (e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET) {
    providers.push({ id: 'google', name: 'Google', clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET })
  }
  return providers
}

/** Hides the password of a URL so that configuration errors can be printed safely. */
export function redactUrl(value: string): string {
  try {
    const parsed = new URL(value)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return value
  }
}
