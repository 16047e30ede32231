import { sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { z } from 'zod/mini'
import { type DemoEcho, type DemoServerTime, demoMessageSchema } from '../../shared/demo.js'
import type { Config } from '../config.js'
import type { Database } from '../db/client.js'
import { jsonBody, queryParams } from '../http/body.js'
import type { AppEnv } from '../http/context.js'
import { ApiError } from '../http/errors.js'
import { describe, json } from '../openapi/describe.js'
import { demoEchoSchema, demoServerTimeSchema } from '../openapi/schemas.js'

const serverTimeQuery = z.object({
  /** Lets the demo page show its error state on demand. */
  fail: z.optional(z.enum(['true', 'false'])),
})

const describeServerTime = describe({
  operationId: 'getDemoServerTime',
  summary: "The database's clock",
  description: '`?fail=true` answers 503, so that the demo page can show its error and retry states.',
  tags: ['Demo'],
  access: 'public',
  responses: { 200: json(demoServerTimeSchema, 'The time, as the database reads it.') },
  errors: [503],
})

const describeMessages = describe({
  operationId: 'postDemoMessage',
  summary: 'Validate a message and echo it back',
  description: 'Validated with the same schema as the form; never stored.',
  tags: ['Demo'],
  access: 'public',
  responses: { 200: json(demoEchoSchema, 'The message as validated.') },
})

/** The endpoints behind the `/fetching` and `/fetching-post` demo pages. */
export function demoRoutes(config: Config, database: Database) {
  return new Hono<AppEnv>()
    .get('/server-time', describeServerTime, queryParams(serverTimeQuery), async (c) => {
      if (c.req.valid('query').fail === 'true') {
        throw new ApiError('service_unavailable', 'Simulated failure (demo).')
      }
      // Both drivers answer `{ rows }`; the shared Db type cannot say which row type.
      const result: unknown = await database.db.execute(sql`select now() as now`)
      const now = (result as { rows: { now: string | Date }[] }).rows[0]?.now
      const body: DemoServerTime = {
        databaseTime: new Date(now ?? Date.now()).toISOString(),
        serverVersion: config.version,
        uptimeSeconds: Math.round(process.uptime()),
        requestId: c.var.requestId,
      }
      c.header('Cache-Control', 'no-store')
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
