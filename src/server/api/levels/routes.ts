import { type Context, Hono, type MiddlewareHandler } from 'hono'
import {
  levelInputSchema,
  levelListQuerySchema,
  levelOrderSchema,
  levelPatchSchema,
} from '@/shared/levels-schemas'
import type { Db } from '@/server/db/client'
import { jsonBody, queryParams, rowIdParam } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { ApiError } from '@/server/http/errors'
import { requireAdmin, signedInUser } from '@/server/auth/session'
import { undocumented } from '@/server/openapi/describe'
import { type LevelReadCache, sentKey } from './cache'
import {
  describeCreate,
  describeDelete,
  describeGet,
  describeList,
  describeOrder,
  describePatch,
  describeUsage,
} from './docs'
import {
  createLevel,
  deleteLevel,
  findLevel,
  levelLister,
  levelNotFound,
  levelUsage,
  reorderLevels,
  updateLevel,
} from './store'

/**
 * A public read, from `cache`: 304 when the client's copy is current (`If-None-Match`). Public
 * data that changes: caches may keep it, but must ask again before using it.
 */
async function cachedRead(c: Context<AppEnv>, cache: LevelReadCache, key: string, load: () => Promise<unknown>) {
  const generation = cache.generation
  const answer = await cache.read(key, load)
  c.header('Cache-Control', 'no-cache')
  c.header('ETag', answer.etag)
  if (c.req.header('if-none-match') === answer.etag) return c.body(null, 304)
  c.header('Content-Type', 'application/json')
  // The same request line may be answered again by the HTTP server alone (answerAgain in
  // http/node-server.ts), until a level changes: the target as sent, as the server sees it.
  cache.keepSent(sentKey(c.req.header('host'), c.env.incoming.url ?? ''), generation, answer)
  return c.body(answer.body)
}

/**
 * `/api/language-levels`: public reads, answered from `cache` (kept until a level changes on any
 * instance); changes by administrators only, each recorded in the audit log and announced to every
 * instance in its own transaction. `session` reads the session (only the routes that need it pay
 * for it).
 */
export function levelRoutes(db: Db, session: MiddlewareHandler<AppEnv>, cache: LevelReadCache) {
  const admin = [session, requireAdmin(db)] as const
  const listLevels = levelLister(db)
  return new Hono<AppEnv>()
    .get('/', describeList, queryParams(levelListQuerySchema), (c) => {
      const query = c.req.valid('query')
      return cachedRead(c, cache, `list:${query.sort}:${query.page}:${query.pageSize}:${query.q ?? ''}`, () => listLevels(query))
    })
    .put('/order', describeOrder, ...admin, jsonBody(levelOrderSchema), async (c) => {
      const levels = await reorderLevels(db, c.req.valid('json').ids, signedInUser(c))
      cache.changed()
      return c.json(levels)
    })
    // `/order` is a path of its own, not a level's id: 405 for its other methods (app.ts
    // answers the ones no route has).
    .on(['GET', 'PATCH', 'DELETE'], '/order', undocumented, () => {
      throw new ApiError('method_not_allowed', 'This path takes only PUT.', undefined, { Allow: 'PUT' })
    })
    .get('/:id', describeGet, levelIdParam, (c) => {
      const { id } = c.req.valid('param')
      return cachedRead(c, cache, `level:${id}`, () => findLevel(db, id))
    })
    .get('/:id/usage', describeUsage, ...admin, levelIdParam, async (c) => {
      const usage = await levelUsage(db, c.req.valid('param').id)
      return c.json(usage)
    })
    .post('/', describeCreate, ...admin, jsonBody(levelInputSchema), async (c) => {
      const level = await createLevel(db, c.req.valid('json'), signedInUser(c))
      cache.changed()
      c.header('Location', `/api/language-levels/${level.id}`)
      return c.json(level, 201)
    })
    .patch('/:id', describePatch, ...admin, levelIdParam, jsonBody(levelPatchSchema), async (c) => {
      const level = await updateLevel(db, c.req.valid('param').id, c.req.valid('json'), signedInUser(c))
      cache.changed()
      return c.json(level)
    })
    .delete('/:id', describeDelete, ...admin, levelIdParam, async (c) => {
      await deleteLevel(db, c.req.valid('param').id, signedInUser(c))
      cache.changed()
      return c.body(null, 204)
    })
}

const levelIdParam = rowIdParam(levelNotFound)
