import { sql } from 'drizzle-orm'
import { Hono, type MiddlewareHandler } from 'hono'
import { z } from 'zod/mini'
import { type DemoEcho, type DemoServerTime, demoMessageSchema } from '@/shared/demo'
import type { Database } from '@/server/db/client'
import { jsonBody, queryParams } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { ApiError } from '@/server/http/errors'
import { describe, json } from '@/server/openapi/describe'
import { answer, isoDateTime } from '@/server/openapi/schemas'

const serverTimeQuery = z.object({
  /** Lets the demo page show its error state on demand. */
  fail: z.optional(z.enum(['true', 'false'])),
})

const demoServerTimeSchema = answer<DemoServerTime>('DemoServerTime', "The database's clock.")(
  z.object({
    databaseTime: isoDateTime,
    requestId: z.string(),
  }),
)

const demoEchoSchema = answer<DemoEcho>('DemoEcho', 'The message as validated, echoed back.')(
  z.object({ received: demoMessageSchema, receivedAt: isoDateTime, requestId: z.string() }),
)

const describeServerTime = describe({
  operationId: 'getDemoServerTime',
  summary: "The database's clock",
  description: '`?fail=true` answers 503, so that the demo page can show its error and retry states.',
  tags: ['Demo'],
  access: 'public',
  responses: { 200: json(demoServerTimeSchema, 'The time, as the database reads it.') },
  errors: [429, 503],
})

const describeMessages = describe({
  operationId: 'postDemoMessage',
  summary: 'Validate a message and echo it back',
  description: 'Validated with the same schema as the form; never stored.',
  tags: ['Demo'],
  access: 'public',
  responses: { 200: json(demoEchoSchema, 'The message as validated.') },
})

/** Reads of the database's clock per address per minute: a page load or a click each. */
export const SERVER_TIME_PER_MINUTE = 120

/**
 * The endpoints behind the `/fetching` and `/fetching-post` demo pages. `limit` counts the reads
 * of the clock per address: each is a database query anyone may ask for.
 */
export function demoRoutes(database: Database, limit: MiddlewareHandler<AppEnv>) {
  return new Hono<AppEnv>()
    .get('/server-time', describeServerTime, limit, queryParams(serverTimeQuery), async (c) => {
      if (c.req.valid('query').fail === 'true') {
        throw new ApiError('service_unavailable', 'Simulated failure (demo).')
      }
      // Both drivers answer `{ rows }`; the shared Db type cannot say which row type.
      const result: unknown = await database.db.execute(sql`select now() as now`)
      const now = (result as { rows: { now: string | Date }[] }).rows[0]?.now
      const body: DemoServerTime = {
        databaseTime: new Date(now ?? Date.now()).toISOString(),
        requestId: c.var.requestId,
      }
      return c.json(body)
    })
    .post('/messages', describeMessages, jsonBody(demoMessageSchema), (c) => {
      const body: DemoEcho = {
        received: c.req.valid('json'),
        receivedAt: new Date().toISOString(),
        requestId: c.var.requestId,
      }
      return c.json(body, 200)
    })
}
