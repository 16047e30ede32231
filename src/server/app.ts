import path from 'node:path'
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { PROVIDER_FORM_PATH } from '@/shared/auth'
import { adminRoutes } from './api/admin/routes'
import { ASSESSMENT_WRITES, assessmentRoutes } from './api/assessment/routes'
import { auditRoutes } from './api/audit-log'
import { STATEMENT_IMPORTS, STATEMENT_WRITES, canDoAdminRoutes, canDoRoutes } from './api/can-do/routes'
import { CLIENT_ERROR_LIMITS, clientErrorRoutes } from './api/client-errors'
import { SERVER_TIME_PER_MINUTE, demoRoutes } from './api/demo'
import type { LevelReadCache } from './api/levels/cache'
import { levelRoutes } from './api/levels/routes'
import { orderedLevels } from './api/levels/store'
import { meRoutes } from './api/me'
import { AVATAR_UPLOADS, avatarRoutes, avatarUploadRoutes } from './api/avatars/routes'
import { DATA_EXPORTS, dataExportRoutes } from './api/data-export/routes'
import { PRACTICE_WRITES, practiceRoutes } from './api/practice/routes'
import { reminderRoutes } from './api/reminders/routes'
import type { ReminderTokens } from './api/reminders/token'
import { progressRoutes } from './api/progress/routes'
import { DECK_WRITES, deckRoutes } from './api/decks/routes'
import { IMPORT_STARTS, importRoutes } from './api/imports/routes'
import { mediaRoutes } from './api/imports/media'
import { profileRoutes } from './api/profile'
import { WORD_WRITES, wordRoutes } from './api/words/routes'
import { clientConfigOf, systemRoutes } from './api/system'
import { type Auth, CLIENT_IP_HEADER, COOKIE_PREFIX } from './auth/auth'
import type { Revocations } from './auth/revocations'
import { inApiErrorShape } from './auth/errors'
import { withoutSessionTokens } from './auth/session-tokens'
import { providerFormRoutes } from './api/provider-form'
import { providerPageOrigins } from './auth/providers'
import { withProviderDeadline } from './auth/provider-deadline'
import { unservedAuthPaths, unservedMatcher } from './auth/unserved'
import type { Config } from './config'
import type { Database } from './db/client'
import type { InstanceEvents } from './events/bus'
import type { LiveHub } from './events/hub'
import { liveRoutes } from './api/live'
import { memoryStreamSlots, redisStreamSlots } from './events/stream-slots'
import type { MailThrottle, Mailer } from './mail/index'
import { apiBodyGuard, authRequestBody } from './http/body'
import { clientAddressOf } from './http/client-address'
import type { AppEnv } from './http/context'
import { ApiError, handleError } from './http/errors'
import {
  contentSecurityPolicy,
  inlineScriptHashes,
  privateUnlessSaid,
  sameOriginWrites,
  securityHeaders,
} from './http/security'
import { untrustedCacheCookieRemover } from './auth/session-memo'
import { rateLimit } from './http/rate-limit'
import { requestLog } from './http/request-log'
import { cacheCookieMs, readSession, sessionCookieNames, signedInUser } from './auth/session'
import { sessionAnswerMemo } from './auth/session-answer-memo'
import { authRequestCounter } from './auth/rate-limits'
import { pageRenderer } from './http/pages'
import { loadAppShell, mountClient } from './http/static'
import { undocumented } from './openapi/describe'
import { openApiDocument } from './openapi/document'
import { apiReferenceRoutes } from './openapi/reference'

/**
 * A Host the HTTP server lets through but no URL parser takes (`256.1.1.1`): the request's URL
 * cannot be read, by the origin check or better-auth. The client's mistake (400), not a 500.
 */
function refuseUnparsableUrl(): MiddlewareHandler<AppEnv> {
  // Only the Host can make it so (the adapter checks the target): the last one that passed is
  // not parsed again.
  let parsableHost: string | undefined | null = null
  return async (c, next) => {
    const host = c.req.header('host')
    if (host !== parsableHost) {
      if (!URL.canParse(c.req.url)) throw new ApiError('bad_request', 'The Host header is not a valid host.')
      parsableHost = host
    }
    await next()
  }
}

/**
 * A session cache cookie that is not what better-auth writes, or of an account whose role or
 * access just changed (`revocations`), is dropped: the session is read from the store instead.
 */
function dropUntrustedCacheCookies(revocations: Revocations): MiddlewareHandler<AppEnv> {
  const remove = untrustedCacheCookieRemover(COOKIE_PREFIX, (userId) => revocations.isRevoked(userId))
  return async (c, next) => {
    const cookie = c.req.header('cookie')
    const cleaned = cookie === undefined ? undefined : remove(cookie)
    if (cleaned !== undefined) {
      const headers = new Headers(c.req.raw.headers)
      if (cleaned) headers.set('cookie', cleaned)
      else headers.delete('cookie')
      c.req.raw = new Request(c.req.raw, { headers })
    }
    await next()
  }
}

export function createApp(deps: {
  config: Config
  logger: Logger
  database: Database
  auth: Auth
  /** Shared counters of several instances (REDIS_URL). */
  redis?: Redis
  mailer: Mailer
  mailThrottle: MailThrottle
  /** Accounts whose cached sessions are not trusted now (told by every instance). */
  revocations: Revocations
  /** The events of every instance (events/bus.ts), heard by this one. */
  events: InstanceEvents
  /** This instance's live streams. */
  hub: LiveHub
  /** The public level reads kept until a level changes (the HTTP server sends some again). */
  levelCache: LevelReadCache
  /** True once the process is shutting down (readiness answers 503). */
  isDraining?: () => boolean
  /** The clock of practice (the learner's day, what is due); tests move it. */
  now?: () => Date
  /** Tells this instance's import worker that a job waits (it also looks every second). */
  importQueued?: () => void
  /** Tells this instance's worker of learners' jobs that a memory model's fit waits (it also looks every second). */
  fitQueued?: () => void
  /** Signs and checks the reminders' unsubscribe tokens (api/reminders/token.ts). */
  reminderTokens: ReminderTokens
}) {
  const { config, logger, database, auth, redis, mailer, mailThrottle, revocations, events, hub, levelCache, isDraining = () => false, now = () => new Date() } = deps
  const importQueued = deps.importQueued ?? (() => {})
  const shell = loadAppShell(config.clientDir)
  if (!shell) logger.warn({ clientDir: config.clientDir }, 'client not built: pages answer 503')
  const csp = contentSecurityPolicy(shell ? inlineScriptHashes(shell.html) : [], providerPageOrigins(config.providers))

  const app = new Hono<AppEnv>()

  app.use('*', requestLog(logger, { all: config.logRequests, slowMs: config.slowRequestMs }))
  app.use(
    '*',
    securityHeaders({ csp: () => csp, https: config.appUrl.startsWith('https:'), trustProxy: config.trustProxy }),
  )
  app.use(
    '/api/*',
    privateUnlessSaid,
    refuseUnparsableUrl(),
    dropUntrustedCacheCookies(revocations),
    sameOriginWrites(config.appUrl),
    // A body refused where the method is not taken at all: 405, as the route table answers.
    apiBodyGuard((c) => methodNotAllowed(c)),
  )

  /** Throws 405 with `Allow` when the request's path is documented, without its method. */
  const methodNotAllowed = async (c: Context<AppEnv>): Promise<void> => {
    const allowed = await openApi.allowedMethods(c.req.path)
    if (allowed && !allowed.includes(c.req.method)) {
      throw new ApiError('method_not_allowed', `${c.req.path} does not take ${c.req.method}.`, undefined, {
        Allow: allowed.join(', '),
      })
    }
  }

  const clientAddress = clientAddressOf(config.trustProxy)
  /** A limit per client address, counted by every instance together when there is Redis. */
  const perAddress = (name: string, points: number, seconds: number) =>
    rateLimit({ name, points, seconds, key: clientAddress, redis, redisKeyPrefix: config.redisKeyPrefix })
  const system = systemRoutes(config, database, isDraining)
  app.route('/api', system.api)
  app.route(
    '/api/client-errors',
    clientErrorRoutes({
      logger,
      limit: perAddress('client-errors', CLIENT_ERROR_LIMITS.perAddress, CLIENT_ERROR_LIMITS.windowSeconds),
    }),
  )
  app.route('/api/demo', demoRoutes(database, perAddress('demo-server-time', SERVER_TIME_PER_MINUTE, 60)))
  // Routes that need to know who is asking; each guards itself with requireUser/requireAdmin.
  const session = readSession(auth)
  app.use('/api/me/*', session)
  app.route('/api/me', meRoutes(database.db, auth, config.providers))
  app.route('/api/me/profile', profileRoutes(database.db))
  /** A limit per signed-in account (after `requireUser`), counted by every instance together. */
  const perAccount = (name: string, points: number, seconds: number, acceptedOnly = false) =>
    rateLimit({
      name,
      points: Math.ceil(points * config.accountRateLimitScale),
      seconds,
      key: (c) => signedInUser(c).id,
      redis,
      redisKeyPrefix: config.redisKeyPrefix,
      acceptedOnly,
    })
  app.route(
    '/api/me/avatar',
    // Only the pictures taken count: a refused file (400, 413, 415) uses up none of the limit.
    avatarUploadRoutes({ db: database.db, auth, limit: perAccount('avatar-upload', AVATAR_UPLOADS.points, AVATAR_UPLOADS.seconds, true) }),
  )
  app.route('/api/me/export', dataExportRoutes(database.db, perAccount('data-export', DATA_EXPORTS.points, DATA_EXPORTS.seconds)))
  app.route('/api/me/assessment', assessmentRoutes(database.db, perAccount('assessment', ASSESSMENT_WRITES.points, ASSESSMENT_WRITES.seconds), events))
  app.route('/api/me/practice', practiceRoutes(database.db, perAccount('practice-writes', PRACTICE_WRITES.points, PRACTICE_WRITES.seconds), now, events, deps.fitQueued))
  app.route('/api/me/progress', progressRoutes(database.db, now))
  app.route('/api/me/decks', deckRoutes(database.db, perAccount('deck-writes', DECK_WRITES.points, DECK_WRITES.seconds), now))
  app.route('/api/me/imports', importRoutes(database.db, perAccount('imports', IMPORT_STARTS.points, IMPORT_STARTS.seconds), importQueued))
  app.route('/api/me/media', mediaRoutes(database.db))
  app.route('/api/avatars', avatarRoutes(database.db))
  app.route('/api/reminders', reminderRoutes(database.db, deps.reminderTokens))
  // Public reads here skip the session lookup: only the administrators' routes read it. The cache
  // hears a change before the streams tell the clients about it.
  events.add(levelCache)
  events.add(hub)
  app.route('/api/language-levels', levelRoutes(database.db, session, levelCache))
  const words = wordRoutes(database.db, session, perAccount('word-writes', WORD_WRITES.points, WORD_WRITES.seconds))
  app.route('/api/language-levels', words.ofLevel)
  app.route('/api/words', words.byId)
  app.route(
    '/api/events',
    liveRoutes(auth, hub, {
      slots: redis ? redisStreamSlots(redis, config.redisKeyPrefix, logger) : memoryStreamSlots(),
      perSession: config.liveStreamsPerSession,
      perAddress: config.liveStreamsPerAddress,
      clientAddress,
    }),
  )
  app.route('/api/audit-log', auditRoutes(database.db, session))
  app.route('/api/can-do-statements', canDoRoutes(database.db))
  // Before `/api/admin`, whose own guard would otherwise run first (and a second time).
  app.route(
    '/api/admin/can-do-statements',
    canDoAdminRoutes({
      db: database.db,
      session,
      limit: perAccount('can-do-writes', STATEMENT_WRITES.points, STATEMENT_WRITES.seconds),
      importLimit: perAccount('can-do-imports', STATEMENT_IMPORTS.points, STATEMENT_IMPORTS.seconds),
    }),
  )
  app.route(
    PROVIDER_FORM_PATH,
    providerFormRoutes({
      appUrl: config.appUrl,
      providers: config.providers,
      forward: async (request, env) => app.fetch(request, env),
    }),
  )
  app.route('/api/admin', adminRoutes({ config, db: database.db, auth, mailer, mailThrottle, logger, session }))
  // Built from the routes (and better-auth's), on the first request.
  const openApi = openApiDocument(app, auth, config)
  /** 405 with `Allow` for a documented path called with another method; else 404. */
  const notServed = async (c: Context<AppEnv>, message: string): Promise<never> => {
    await methodNotAllowed(c)
    throw new ApiError('not_found', message)
  }
  const unserved = unservedMatcher(unservedAuthPaths(config.providers.length > 0), '/api/auth')
  const sessionAnswers = sessionAnswerMemo({
    cookieNames: sessionCookieNames(auth),
    cacheMs: cacheCookieMs(auth),
    count: authRequestCounter(auth.options, '/get-session'),
  })
  app.on(['GET', 'POST'], '/api/auth/*', async (c) => {
    if (unserved(c.req.path)) throw new ApiError('not_found', `No API endpoint ${c.req.method} ${c.req.path}.`)
    // better-auth counts its rate limits per address, read from this header only.
    const headers = new Headers(c.req.raw.headers)
    headers.set(CLIENT_IP_HEADER, clientAddress(c))
    const request = new Request(c.req.raw, { headers, body: await authRequestBody(c.req, headers) })
    const answer = async (request: Request) => {
      const signedIn = async () => Boolean(await auth.api.getSession({ headers: c.req.raw.headers }))
      const response = await withProviderDeadline(c.req.path, config.providerTimeoutMs, config.appUrl, signedIn, () =>
        auth.handler(request),
      )
      // better-auth's 404 for a path of its own called with the other method: 405.
      const allowed = response.status === 404 ? await openApi.allowedMethods(c.req.path) : undefined
      if (allowed && !allowed.includes(c.req.method)) {
        await response.body?.cancel()
        return notServed(c, 'Not found.')
      }
      return withoutSessionTokens(await inApiErrorShape(response))
    }
    // The session read of every signed-in page, without a query (`disableCookieCache` asks the store).
    const sessionRead = c.req.method === 'GET' && c.req.path === '/api/auth/get-session' && !c.req.url.includes('?')
    return sessionRead ? sessionAnswers(request, answer) : answer(request)
  })
  app.get('/api/openapi.json', undocumented, openApi.handler)
  app.route('/api/docs', apiReferenceRoutes(config.appName))
  app.all('/api/*', (c) => notServed(c, `No API endpoint ${c.req.method} ${c.req.path}.`))
  app.route('/', system.root)
  const pages =
    shell &&
    pageRenderer({
      entry: path.join(config.clientDir, '..', 'ssr', 'entry-server.js'),
      shell,
      clientDir: config.clientDir,
      config: clientConfigOf(config),
      sessionCookies: [`${COOKIE_PREFIX}.session_token`, `__Secure-${COOKIE_PREFIX}.session_token`],
      levels: () => orderedLevels(database.db),
      changes: levelCache,
      logger,
    })
  mountClient(app, config.clientDir, shell, pages)

  app.notFound((c) => notServed(c, 'Not found.').catch((error: unknown) => handleError(error, c)))
  app.onError(handleError)
  return app
}
