import { Hono, type MiddlewareHandler } from 'hono'
import type { Logger } from 'pino'
import { type ClientErrorReport, clientErrorReportSchema } from '@/shared/demo'
import { bodyAtMost, jsonBody } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { describe } from '@/server/openapi/describe'

/**
 * Anyone may report, so what a report can cost is bounded: its size, how often one address may
 * send, and how many lines all reports together may add to the log in a window. A report seen
 * again within the window is counted, not logged; the counts are logged once when it ends.
 */
export const CLIENT_ERROR_LIMITS = {
  /** A report at its longest is about 5 KB of JSON. */
  maxBodyBytes: 8 * 1024,
  perAddress: 10,
  windowSeconds: 60,
  /** Different reports logged per window, by all addresses together; beyond it they are counted. */
  loggedPerWindow: 50,
} as const

/** `POST /api/client-errors`: an error the client could not show, written to the server log. */
export function clientErrorRoutes(options: {
  logger: Logger
  /** Per address: CLIENT_ERROR_LIMITS.perAddress a window (see rate-limit.ts). */
  limit: MiddlewareHandler<AppEnv>
}) {
  const log = collapsingLog(options.logger)
  return new Hono<AppEnv>().post(
    '/',
    describeClientErrors,
    options.limit,
    bodyAtMost(CLIENT_ERROR_LIMITS.maxBodyBytes),
    jsonBody(clientErrorReportSchema),
    (c) => {
      log(c.req.valid('json'), c.var.logger())
      return c.body(null, 204)
    },
  )
}

/** What makes two reports the same (the user agent may differ). */
const fingerprint = ({ status, message, path }: ClientErrorReport) => JSON.stringify([status, message, path])

/**
 * Logs a report the first time it is seen in a window; counts it after that. At the end of each
 * window, one line per report seen again (with its count) and one for the reports over the
 * window's budget. Memory is bounded as the log is: at most `loggedPerWindow` reports are kept.
 */
function collapsingLog(logger: Logger) {
  let seen = new Map<string, { report: ClientErrorReport; repeats: number }>()
  let dropped = 0
  const flush = () => {
    for (const { report, repeats } of seen.values()) {
      if (repeats > 0) {
        logger.warn({ clientError: report, repeats, windowSeconds: CLIENT_ERROR_LIMITS.windowSeconds }, 'client error reported again')
      }
    }
    if (dropped > 0) {
      logger.warn({ dropped, windowSeconds: CLIENT_ERROR_LIMITS.windowSeconds }, 'client error reports over the log budget, not logged')
    }
    seen = new Map()
    dropped = 0
  }
  setInterval(flush, CLIENT_ERROR_LIMITS.windowSeconds * 1000).unref()

  return (report: ClientErrorReport, requestLogger: Logger) => {
    const key = fingerprint(report)
    const known = seen.get(key)
    if (known) {
      known.repeats += 1
    } else if (seen.size < CLIENT_ERROR_LIMITS.loggedPerWindow) {
      seen.set(key, { report, repeats: 0 })
      requestLogger.warn({ clientError: report }, 'client error reported')
    } else {
      dropped += 1
    }
  }
}

const describeClientErrors = describe({
  operationId: 'reportClientError',
  summary: 'Report an error the client could not show',
  description:
    `Written to the server log (the fallback error screen is not rendered for crawlers). At most ${CLIENT_ERROR_LIMITS.perAddress} reports a minute per address (429 beyond) and ${CLIENT_ERROR_LIMITS.maxBodyBytes / 1024} KiB a report (413); the same report again within a minute is counted, not logged again.`,
  tags: ['System'],
  access: 'public',
  responses: { 204: { description: 'Logged.' } },
  errors: [429],
})
