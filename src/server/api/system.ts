import { Hono } from 'hono'
import type { ClientConfig } from '../../shared/client-config.js'
import { clientErrorReportSchema } from '../../shared/demo.js'
import type { Config } from '../config.js'
import type { Database } from '../db/client.js'
import { jsonBody } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ApiError } from '../http/errors.js'

/** Liveness, readiness, the client's runtime configuration and its error reports. */
export function systemRoutes(config: Config, database: Database) {
  const clientConfig: ClientConfig = {
    apiBaseUrl: '/api',
    appName: config.appName,
    version: config.version,
    features: { emailCode: true },
  }

  const api = new Hono<AppEnv>()
    .get('/health', (c) => {
      c.header('Cache-Control', 'no-store')
      return c.json({ status: 'ok', version: config.version })
    })
    .get('/ready', async (c) => {
      c.header('Cache-Control', 'no-store')
      try {
        await withTimeout(database.ping(), 2000)
      } catch (error) {
        c.var.logger.warn({ err: error }, 'readiness check failed: database unreachable')
        throw new ApiError('service_unavailable', 'The database is unreachable.', undefined, {
          'Retry-After': '5',
        })
      }
      return c.json({ status: 'ready', database: database.kind })
    })
    .post('/client-errors', jsonBody(clientErrorReportSchema), (c) => {
      c.var.logger.warn({ clientError: c.req.valid('json') }, 'client error reported')
      return c.body(null, 204)
    })

  const root = new Hono<AppEnv>().get('/config.json', (c) => {
    c.header('Cache-Control', 'no-cache')
    return c.json(clientConfig)
  })

  return { api, root }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error instanceof Error ? error : new Error(String(error)))
      },
    )
  })
}
