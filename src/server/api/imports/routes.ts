import { Hono, type MiddlewareHandler } from 'hono'
import { z } from 'zod/mini'
import { requireUser, signedInUser } from '@/server/auth/session'
import type { Db } from '@/server/db/client'
import { pathParams } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { describeImportStatus, describeImports, describeStartImport } from './docs'
import { importNotFound, listImports, readImport, receiveImport } from './store'

/** Imports per learner: a few files an hour is a learner; more is a script. */
export const IMPORT_STARTS = { points: 20, seconds: 3600 }

/** `/api/me/imports` (behind `readSession`): the learner's imports, started and followed. */
export function importRoutes(db: Db, limit: MiddlewareHandler<AppEnv>, kick: () => void) {
  return new Hono<AppEnv>()
    .post('/', describeStartImport, requireUser, limit, async (c) => {
      const started = await receiveImport(db, signedInUser(c).id, c.req.raw)
      kick()
      c.header('Location', `/api/me/imports/${started.id}`)
      return c.json(started, 202)
    })
    .get('/', describeImports, requireUser, async (c) => c.json(await listImports(db, signedInUser(c).id)))
    .get('/:id', describeImportStatus, requireUser, pathParams(z.object({ id: z.string().check(z.maxLength(36)) }), importNotFound), async (c) => {
      return c.json(await readImport(db, signedInUser(c).id, c.req.valid('param').id))
    })
}
