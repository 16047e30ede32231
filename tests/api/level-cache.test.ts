import { randomUUID } from 'node:crypto'
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { databaseTargets } from '../helpers/database'
import { allLevels } from '../helpers/levels'
import { jsonLogs } from '../helpers/server'

/**
 * The public level reads kept until a level changes (src/server/api/levels/cache.ts): the app
 * answers them from memory, and the HTTP server sends a 200 the app gave before again without the
 * app (answerAgain in http/node-server.ts). Both must be the very answer the app would give.
 */
describe.each(databaseTargets())('cached level reads on %s', (target) => {
  let world: AdminWorld
  const list = '/api/language-levels?sort=position&page=1&pageSize=50'

  beforeAll(async () => {
    world = await startAdminWorld(target, 'level-cache', { TRUST_PROXY: 'true', LOG_REQUESTS: 'true' })
  })
  afterAll(() => world?.stop())

  const get = (url: string, headers: Record<string, string> = {}) => {
    const id = `cache-${randomUUID()}`
    return fetch(`${world.server.url}${url}`, { headers: { 'X-Request-Id': id, ...headers } }).then(async (response) => ({
      id,
      response,
      body: await response.text(),
    }))
  }
  /** Whether the app itself answered (and logged) the request `id`. */
  const byTheApp = (id: string) => jsonLogs(world.server).some((entry) => entry.requestId === id && entry.msg === 'request')
  const comparable = (headers: Headers) =>
    Object.fromEntries([...headers].filter(([name]) => !['date', 'x-request-id', 'keep-alive', 'connection'].includes(name)))

  for (const path of [list, '/api/language-levels/1']) {
    it(`sends ${path} again exactly as the app answered it, until a level changes`, async () => {
      const first = await get(path)
      expect(first.response.status).toBe(200)
      const again = await get(path)
      expect(again.response.status).toBe(200)
      expect(again.body).toBe(first.body)
      expect(comparable(again.response.headers)).toEqual(comparable(first.response.headers))
      expect(again.response.headers.get('x-request-id')).toBe(again.id)
      // Revalidation is the app's: 304 with the same tag.
      const revalidated = await get(path, { 'If-None-Match': first.response.headers.get('etag') ?? '' })
      expect(revalidated.response.status).toBe(304)
      expect(revalidated.body).toBe('')
      // A request's line is logged once its answer is sent: once the app has logged this later
      // one, it has logged the earlier ones it answered.
      await expect.poll(() => byTheApp(revalidated.id)).toBe(true)
      expect(byTheApp(first.id)).toBe(true)
      expect(byTheApp(again.id)).toBe(false)

      // Behind a balancer that says it was https: HSTS, as the app would add.
      const forwarded = await get(path, { 'X-Forwarded-Proto': 'https' })
      expect(forwarded.response.headers.get('strict-transport-security')).toMatch(/^max-age=/)
      expect(forwarded.body).toBe(first.body)

      const [level] = await allLevels(world.admin)
      const renamed = await world.admin.request('PATCH', `/api/language-levels/${level?.id}`, {
        name: `Renamed ${randomUUID().slice(0, 8)}`,
        version: level?.version,
      })
      expect(renamed.status).toBe(200)
      // The writer's next read, on the same instance, is fresh at once (not when its event is back).
      const after = await get(path)
      expect(after.body).not.toBe(first.body)
      expect(after.response.headers.get('etag')).not.toBe(first.response.headers.get('etag'))
      await expect.poll(() => byTheApp(after.id)).toBe(true)
    })
  }

  it('leaves to the app what it never answered 200: a bad query, an unknown level, another Host', async () => {
    expect((await get('/api/language-levels?pageSize=0')).response.status).toBe(400)
    expect((await get('/api/language-levels?pageSize=0')).response.status).toBe(400)
    expect((await get('/api/language-levels/999999')).response.status).toBe(404)
    expect((await get('/api/language-levels/999999')).response.status).toBe(404)
    await get(list)
    // A Host no URL parser takes: the app refuses it (400), so it is never answered again.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      http
        .get(`${world.server.url}${list}`, { headers: { Host: '256.1.1.1' } }, (response) => {
          response.resume()
          resolve(response.statusCode)
        })
        .on('error', reject)
    })
    expect(status).toBe(400)
  })
})
