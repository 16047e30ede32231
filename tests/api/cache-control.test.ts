import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LanguageLevel } from '@/shared/levels'
import { type AdminWorld, password, startAdminWorld } from '../helpers/accounts'
import type { Client } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { allLevels } from '../helpers/levels'
import { expectJson } from '../helpers/server'

/*
 * Who may keep an answer: no cache keeps a private one (the session's, one person's or an
 * administrator's data, an error, better-auth's answers, the live stream), and each public read
 * says how it may be kept (`privateUnlessSaid` in src/server/http/security.ts).
 */

const IMMUTABLE = 'public, max-age=31536000, immutable'

/** The public reads and what a cache may do with them (their successes: a failure is never kept). */
const publicReads: Record<string, string> = {
  '/api/language-levels': 'no-cache',
  '/api/language-levels/{id}': 'no-cache',
  '/api/can-do-statements': 'no-cache',
  '/api/avatars/{userId}/{file}': IMMUTABLE,
  '/config.json': 'no-cache',
}

describe.each(databaseTargets())('Cache-Control on %s', (target) => {
  let world: AdminWorld
  let level: LanguageLevel
  beforeAll(async () => {
    world = await startAdminWorld(target, 'cache-control')
    const [first] = await allLevels(world.visitor)
    if (!first) throw new Error('no seeded level')
    level = first
  })
  afterAll(async () => {
    await world.stop()
  })

  /** Sends the request and checks the status and Cache-Control of its answer. */
  async function expectKept(client: Client, method: string, path: string, status: number, cacheControl: string, body?: unknown) {
    const response = await client.request(method, path, body)
    await response.body?.cancel()
    expect(response.status, `${method} ${path}`).toBe(status)
    expect(response.headers.get('cache-control'), `${method} ${path} ${status}`).toBe(cacheControl)
    return response
  }

  it('no cache keeps what the signed-in person or an administrator reads and writes', async () => {
    await expectKept(world.learner, 'GET', '/api/me', 200, 'no-store')
    const profile = { language: 'fr', currentLevelId: level.id, targetLevelId: level.id }
    await expectKept(world.learner, 'PUT', '/api/me/profile', 200, 'no-store', profile)
    await expectKept(world.learner, 'GET', '/api/me/practice/today', 200, 'no-store')
    await expectKept(world.learner, 'DELETE', '/api/me/assessment', 204, 'no-store')
    await expectKept(world.admin, 'GET', '/api/admin/overview', 200, 'no-store')
    await expectKept(world.admin, 'GET', `/api/language-levels/${level.id}/usage`, 200, 'no-store')
    await expectKept(world.admin, 'GET', `/api/language-levels/${level.id}/words/csv`, 200, 'no-store')
  })

  it('no cache keeps a failure: a refused body, a forbidden or unknown resource, no session', async () => {
    await expectKept(world.learner, 'PUT', '/api/me/profile', 400, 'no-store', { language: 'xx' })
    await expectKept(world.learner, 'GET', '/api/admin/overview', 403, 'no-store')
    await expectKept(world.visitor, 'GET', '/api/me', 401, 'no-store')
    await expectKept(world.visitor, 'GET', '/api/me/practice/queue', 401, 'no-store')
    // A public read's failure is not public data.
    await expectKept(world.visitor, 'GET', '/api/language-levels/999999', 404, 'no-store')
    await expectKept(world.visitor, 'GET', '/api/nothing-here', 404, 'no-store')
  })

  it("no cache keeps better-auth's answers, which keep their own headers", async () => {
    const session = await expectKept(world.learner, 'GET', '/api/auth/get-session', 200, 'no-store')
    expect(session.headers.get('pragma')).toBe('no-cache')
    await expectKept(world.learner, 'GET', '/api/auth/list-sessions', 200, 'no-store')
    const wrong = { email: world.adminEmail, password: `${password}!` }
    await expectKept(world.visitor, 'POST', '/api/auth/sign-in/email', 401, 'no-store', wrong)
  })

  it('no cache keeps the live stream', async () => {
    const response = await fetch(`${world.server.url}/api/events`, { headers: { Cookie: world.learner.cookieHeader() } })
    await response.body?.cancel()
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  it('lets caches keep the public reads, asking again before using the ones that change', async () => {
    const list = await expectKept(world.visitor, 'GET', '/api/language-levels', 200, 'no-cache')
    const etag = list.headers.get('etag') ?? ''
    expect(etag).not.toBe('')
    const again = await world.visitor.request('GET', '/api/language-levels', undefined, { headers: { 'If-None-Match': etag } })
    expect(again.status).toBe(304)
    expect(again.headers.get('cache-control')).toBe('no-cache')
    await expectKept(world.visitor, 'GET', `/api/language-levels/${level.id}`, 200, 'no-cache')
    await expectKept(world.visitor, 'GET', '/api/can-do-statements', 200, 'no-cache')
    await expectKept(world.visitor, 'GET', '/api/openapi.json', 200, 'no-cache')
    await expectKept(world.visitor, 'GET', '/config.json', 200, 'no-cache')
    // Health is public but of the moment.
    await expectKept(world.visitor, 'GET', '/api/health', 200, 'no-store')

    const picture = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 0, g: 0, b: 255 } } }).png().toBuffer()
    const upload = await world.learner.request('PUT', '/api/me/avatar', undefined, {
      body: new Uint8Array(picture),
      headers: { Origin: world.server.url, Cookie: world.learner.cookieHeader(), 'Content-Type': 'image/png' },
    })
    expect(upload.headers.get('cache-control')).toBe('no-store')
    const { image } = await expectJson<{ image: string }>(upload)
    await expectKept(world.visitor, 'GET', new URL(image, world.server.url).pathname, 200, IMMUTABLE)
  })

  it.each(['visitor', 'admin'] as const)('answers every documented GET of the app as above, for the %s', async (who) => {
    const document = await expectJson<{ paths: Record<string, Record<string, unknown>> }>(
      await world.visitor.request('GET', '/api/openapi.json'),
    )
    const paths = Object.entries(document.paths)
      .filter(([path, item]) => item.get && !path.startsWith('/api/auth/') && path !== '/api/events')
      .map(([path]) => path)
    expect(paths.length).toBeGreaterThan(20)
    for (const path of paths) {
      const response = await world[who].request('GET', path.replace(/\{\w+\}/g, String(level.id)))
      await response.body?.cancel()
      const kept = response.status < 400 ? publicReads[path] : undefined
      expect(response.headers.get('cache-control'), `GET ${path} ${response.status}`).toBe(kept ?? 'no-store')
    }
  })
})
