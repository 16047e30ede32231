import { Hono } from 'hono'
import { z } from 'zod/mini'
import type { ClientConfig } from '@/shared/client-config'
import type { Config } from '@/server/config'
import type { Database } from '@/server/db/client'
import type { AppEnv } from '@/server/http/context'
import { ApiError } from '@/server/http/errors'
import { describe, json } from '@/server/openapi/describe'
import { answer } from '@/server/openapi/schemas'

/** What `/config.json` serves, and what the pages the server renders hold. */
export function clientConfigOf(config: Config): ClientConfig {
  return {
    apiBaseUrl: '/api',
    appName: config.appName,
    version: config.version,
    providers: config.providers.map(({ id, name }) => ({ id, name })),
  }
}

/**
 * Liveness, readiness and the client's runtime configuration. `isDraining` says
 * the process is shutting down: not ready any more, though alive and finishing its requests.
 */
export function systemRoutes(config: Config, database: Database, isDraining: () => boolean) {
  const clientConfig = clientConfigOf(config)

  const api = new Hono<AppEnv>()
    .get('/health', describeHealth, (c) => {
      return c.json({ status: 'ok', version: config.version })
    })
    .get('/ready', describeReady, async (c) => {
      // A balancer takes the instance out before it stops taking connections (SHUTDOWN_DELAY_MS).
      if (isDraining()) throw new ApiError('service_unavailable', 'The server is shutting down.')
      try {
        await withTimeout(database.ping(), 2000)
      } catch (error) {
        c.var.logger().warn({ err: error }, 'readiness check failed: database unreachable')
        throw new ApiError('service_unavailable', 'The database is unreachable.', undefined, {
          'Retry-After': '5',
        })
      }
      return c.json({ status: 'ready', database: database.kind })
    })

  const root = new Hono<AppEnv>().get('/config.json', describeConfig, (c) => {
    c.header('Cache-Control', 'no-cache')
    return c.json(clientConfig)
  })

  return { api, root }
}

const healthSchema = answer<{ status: 'ok'; version: string }>('Health', 'The process is alive.')(
  z.object({ status: z.literal('ok'), version: z.string() }),
)

const readySchema = answer<{ status: 'ready'; database: 'pglite' | 'postgres' }>(
  'Ready',
  'The database answers.',
)(z.object({ status: z.literal('ready'), database: z.enum(['pglite', 'postgres']) }))

const clientConfigSchema = answer<ClientConfig>(
  'ClientConfig',
  'What the client reads at start.',
)(
  z.object({
    apiBaseUrl: z.string(),
    appName: z.string(),
    version: z.string(),
    providers: z.array(
      z.object({
        id: z.string().check(z.meta({ description: 'The provider id of `POST /api/auth/sign-in/social`.' })),
        name: z.string().check(z.meta({ description: 'The button says "Continue with {name}".' })),
      }),
    ),
  }),
)

const describeHealth = describe({
  operationId: 'getHealth',
  summary: 'Is the process alive?',
  tags: ['System'],
  access: 'public',
  responses: { 200: json(healthSchema, 'Alive, with the running version.') },
})

const describeReady = describe({
  operationId: 'getReady',
  summary: 'Does the database answer?',
  description:
    'For load balancers: 503 while the database is unreachable (checked within 2 s), and from the moment the process is told to stop (SIGTERM) while it finishes its requests. `/api/health` stays 200 until the process exits.',
  tags: ['System'],
  access: 'public',
  responses: { 200: json(readySchema, 'Ready, on this database.') },
  errors: [503],
})

const describeConfig = describe({
  operationId: 'getClientConfig',
  summary: "The client's runtime configuration",
  description: 'Read by the client at start, so one build runs against any backend. Not under `/api`.',
  tags: ['System'],
  access: 'public',
  responses: { 200: json(clientConfigSchema, 'The configuration.') },
})

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
