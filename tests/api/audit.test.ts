import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEntry, AuditPage } from '@/shared/audit-log'
import type { LanguageLevel } from '@/shared/levels'
import { type AdminWorld, password, startAdminWorld } from '../helpers/accounts'
import { startAppServer } from '../helpers/app-server'
import { Client } from '../helpers/auth-client'
import { cli } from '../helpers/cli'
import { databaseTargets } from '../helpers/database'
import { allLevels, createLevel } from '../helpers/levels'
import { expectApiError, expectJson } from '../helpers/server'

describe.each(databaseTargets())('the audit log on %s', (target) => {
  let world: AdminWorld
  let adminId: string
  beforeAll(async () => {
    world = await startAdminWorld(target, 'audit')
    const me = await expectJson<{ user: { id: string } }>(await world.admin.request('GET', '/api/me'))
    adminId = me.user.id
  })
  afterAll(async () => {
    await world.stop()
  })

  const entries = async (query = '?pageSize=100', admin = world.admin) =>
    expectJson<AuditPage>(await admin.request('GET', `/api/audit-log${query}`))
  const newest = async (): Promise<AuditEntry | undefined> => (await entries('?pageSize=1')).items[0]
  const byAdmin = () => ({ actorId: adminId, actorEmail: world.adminEmail })

  it('is for administrators only, and never cached', async () => {
    await expectApiError(await world.visitor.request('GET', '/api/audit-log'), 401, 'unauthenticated')
    await expectApiError(await world.learner.request('GET', '/api/audit-log'), 403, 'forbidden')
    const response = await world.admin.request('GET', '/api/audit-log')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await expectJson<AuditPage>(response)).toMatchObject({ page: 1, pageSize: 50 })
  })

  it('records the grant of ADMIN_EMAILS on verification, by nobody', async () => {
    const { items, total } = await entries()
    expect(total).toBe(1)
    expect(items[0]).toMatchObject({
      action: 'role.grant',
      actorId: null,
      actorEmail: null,
      targetType: 'user',
      targetId: world.adminEmail,
      before: { role: 'user' },
      after: { role: 'admin' },
    })
    expect(Date.parse(items[0]?.at ?? '')).toBeGreaterThan(Date.now() - 120_000)
  })

  it('records a create, an edit, a reorder and a delete: who, what, before and after', async () => {
    const created = await createLevel(world.admin, { code: 'AUD1', description: 'Audited.' })
    expect(await newest()).toMatchObject({
      ...byAdmin(),
      action: 'level.create',
      targetType: 'language_level',
      targetId: String(created.id),
      before: null,
      after: created,
    })

    const edited = await expectJson<LanguageLevel>(
      await world.admin.request('PATCH', `/api/language-levels/${created.id}`, { name: 'Renamed', version: 1 }),
    )
    expect(await newest()).toMatchObject({
      ...byAdmin(),
      action: 'level.update',
      targetId: String(created.id),
      before: created,
      after: edited,
    })

    const before = await allLevels(world.admin)
    const wanted = [...before].reverse()
    const reordered = await expectJson<LanguageLevel[]>(
      await world.admin.request('PUT', '/api/language-levels/order', { ids: wanted.map((level) => level.id) }),
    )
    const idsAndCodes = (levels: LanguageLevel[]) => levels.map(({ id, code }) => ({ id, code }))
    expect(await newest()).toMatchObject({
      ...byAdmin(),
      action: 'level.reorder',
      targetType: 'language_levels',
      targetId: null,
      before: idsAndCodes(before),
      after: idsAndCodes(wanted),
    })

    const last = reordered.find((level) => level.id === created.id)
    expect((await world.admin.request('DELETE', `/api/language-levels/${created.id}`)).status).toBe(204)
    expect(await newest()).toMatchObject({
      ...byAdmin(),
      action: 'level.delete',
      targetType: 'language_level',
      targetId: String(created.id),
      before: last,
      after: null,
    })

    const actions = (await entries()).items.map((entry) => entry.action)
    expect(actions).toEqual(['level.delete', 'level.reorder', 'level.update', 'level.create', 'role.grant'])
  })

  it('records nothing for a change that fails', async () => {
    const level = await createLevel(world.admin, { code: 'AUD2' })
    const { total } = await entries()
    const path = `/api/language-levels/${level.id}`
    const ids = (await allLevels(world.admin)).map((l) => l.id)
    const failures: [number, Promise<Response>][] = [
      [409, world.admin.request('POST', '/api/language-levels', { code: 'aud2', name: 'Duplicate' })],
      [409, world.admin.request('PATCH', path, { code: 'B1', version: 1 })],
      [409, world.admin.request('PATCH', path, { name: 'Stale', version: 7 })],
      [400, world.admin.request('PATCH', path, { name: '', version: 1 })],
      [404, world.admin.request('PATCH', '/api/language-levels/999999', { name: 'None', version: 1 })],
      [404, world.admin.request('DELETE', '/api/language-levels/999999')],
      [409, world.admin.request('PUT', '/api/language-levels/order', { ids: ids.slice(1) })],
      [400, world.admin.request('PUT', '/api/language-levels/order', { ids: [...ids, ids[0]] })],
      [403, world.learner.request('DELETE', path)],
    ]
    for (const [status, response] of failures) expect((await response).status).toBe(status)
    expect((await entries()).total).toBe(total)
    expect(await expectJson<LanguageLevel>(await world.visitor.request('GET', path))).toEqual(level)
  })

  it('pages, newest first', async () => {
    const all = (await entries()).items
    expect(all.length).toBeGreaterThan(3)
    expect(all.map((entry) => entry.id)).toEqual([...all.map((entry) => entry.id)].sort((a, b) => b - a))
    const ats = all.map((entry) => Date.parse(entry.at))
    expect(ats).toEqual([...ats].sort((a, b) => b - a))

    const second = await entries('?page=2&pageSize=2')
    expect(second).toMatchObject({ page: 2, pageSize: 2, total: all.length })
    expect(second.items).toEqual(all.slice(2, 4))
    for (const query of ['?pageSize=101', '?pageSize=0', '?page=0', '?page=x']) {
      await expectApiError(await world.admin.request('GET', `/api/audit-log${query}`), 400, 'validation_failed')
    }
    expect((await entries('?pageSize=100')).items).toHaveLength(all.length)
  })

  // Last: on PGlite the command line needs the server stopped.
  it('records the grants and revokes of the command line, by nobody', async () => {
    const email = `learner-audit-${target}@example.com`
    const pglite = target === 'pglite'
    if (pglite) await world.server.stop()
    const env: Record<string, string> = {
      DATA_DIR: world.dataDir,
      ...(pglite ? { PORT: String(world.server.port) } : { DATABASE_URL: world.server.database?.url ?? '' }),
    }
    /**
     * Runs `use` with a running server and a client signed in as `account`: on PostgreSQL the
     * world's, on PGlite one started on its folder for the question (the CLI needs it stopped).
     */
    const whileServing = async <T>(account: 'admin' | 'learner', use: (client: Client) => Promise<T>) => {
      if (!pglite) return use(world[account])
      const server = await startAppServer({ env: { DATA_DIR: world.dataDir } })
      try {
        const client = new Client(server)
        const signIn = { email: account === 'admin' ? world.adminEmail : email, password }
        expect((await client.request('POST', '/api/auth/sign-in/email', signIn)).status).toBe(200)
        return await use(client)
      } finally {
        await server.stop()
      }
    }
    // The role counts at once, not after the session's cached copy (up to 60 s old) expires.
    const auditStatusOfLearner = () =>
      whileServing('learner', async (learner) => (await learner.request('GET', '/api/audit-log')).status)
    expect(await cli(['admin', 'grant', email.toUpperCase()], env)).toMatchObject({ code: 0 })
    expect(await auditStatusOfLearner()).toBe(200)
    // Granting again changes nothing and records nothing.
    expect(await cli(['admin', 'grant', email], env)).toMatchObject({ code: 0 })
    expect(await cli(['admin', 'revoke', email], env)).toMatchObject({ code: 0 })
    expect(await auditStatusOfLearner()).toBe(403)

    const [revoke, grant] = await whileServing('admin', async (admin) => (await entries('?pageSize=2', admin)).items)
    const byNobody = { actorId: null, actorEmail: null, targetType: 'user', targetId: email }
    expect(grant).toMatchObject({ ...byNobody, action: 'role.grant', before: { role: 'user' }, after: { role: 'admin' } })
    expect(revoke).toMatchObject({ ...byNobody, action: 'role.revoke', before: { role: 'admin' }, after: { role: 'user' } })
  })
})
