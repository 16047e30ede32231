import type { MiddlewareHandler } from 'hono'
import type { Logger } from 'pino'
import type { AppEnv } from './context'
import { requestIdOf } from './request-id'

/**
 * Gives each request its id and a logger that carries it, and logs the answer: every answer at
 * info when operators turn the request log on (LOG_REQUESTS), and whatever that says, every
 * server error (info: its cause is logged as an error where it was caught) and every answer slower
 * than `slowMs` (warn). Off by default: a line per request is the balancer's access log's job, and
 * at thousands of answers a second it is a stream of JSON nobody reads.
 */
export function requestLog(logger: Logger, options: { all: boolean; slowMs: number }): MiddlewareHandler<AppEnv> {
  const { all, slowMs } = options
  return async (c, next) => {
    const requestId = requestIdOf(c.req.header('x-request-id'))
    c.set('requestId', requestId)
    // Made when first used: most requests log nothing, and a child logger costs its bindings.
    let child: Logger | undefined
    const requestLogger = () => (child ??= logger.child({ requestId }))
    c.set('logger', requestLogger)
    const started = performance.now()
    await next()
    const ms = performance.now() - started
    const { status } = c.res
    const slow = ms >= slowMs
    if (!all && !slow && status < 500) return
    const entry = { req: { method: c.req.method, path: c.req.path }, res: { status }, ms: Math.round(ms * 10) / 10 }
    // A server error's cause is logged where it was caught (errors.ts); this line says how it ended.
    if (slow) requestLogger().warn(entry, 'slow request')
    else requestLogger().info(entry, 'request')
  }
}
