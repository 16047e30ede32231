import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readOutbox } from '@/server/mail/index'
import { migrationsFolder } from '@/server/paths'
import type { AuditPage } from '@/shared/audit-log'
import { startAppServer } from '../helpers/app-server'
import { Client, freshUser, registerAndVerify } from '../helpers/auth-client'
import { cli } from '../helpers/cli'
import { type TestDatabase, createTestDatabase, databaseTargets } from '../helpers/database'
import { type ServerProcess, type TestServer, expectApiError, expectJson, startServer } from '../helpers/server'

const password = 'correct horse battery'

describe.each(databaseTargets())('who becomes admin, on %s', (target) => {
  let dataDir: string
  let server: TestServer | undefined

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-roles-'))
  })
  afterEach(async () => {
    await server?.stop()
    server = undefined
    await rm(dataDir, { recursive: true, force: true })
  })

  it('with ADMIN_EMAILS unset, the first user to verify becomes admin, and the log says so', async () => {
    server = await startAppServer({ database: target, env: { DATA_DIR: dataDir, AUTH_RATE_LIMIT_SCALE: '100' } })
    const first = new Client(server)
    await registerAndVerify(first, dataDir, { email: 'first@example.com', password })
    const second = new Client(server)
    await registerAndVerify(second, dataDir, { email: 'second@example.com', password })

    expect(await freshUser(first)).toMatchObject({ email: 'first@example.com', role: 'admin' })
    expect(await freshUser(second)).toMatchObject({ email: 'second@example.com', role: 'user' })
    expect(server.logs.join('\n')).toMatch(/admin granted: first user to verify/)
    // Recorded as a grant by nobody; the new administrator can read it at once.
    const audit = await expectJson<AuditPage>(await first.request('GET', '/api/audit-log'))
    expect(audit.items).toEqual([
      expect.objectContaining({
        action: 'role.grant',
        actorId: null,
        actorEmail: null,
        targetType: 'user',
        targetId: 'first@example.com',
        before: { id: expect.any(String) as unknown, email: 'first@example.com', role: 'user' },
        after: { id: expect.any(String) as unknown, email: 'first@example.com', role: 'admin' },
      }),
    ])
  })

  it('with ADMIN_EMAILS set, only the listed addresses become admin, on verification', async () => {
    server = await startAppServer({
      database: target,
      env: { DATA_DIR: dataDir, ADMIN_EMAILS: 'Boss@Example.com' },
    })
    const learner = new Client(server)
    await registerAndVerify(learner, dataDir, { email: 'learner@example.com', password })
    const boss = new Client(server)
    await registerAndVerify(boss, dataDir, { email: 'boss@example.com', password })

    expect(await freshUser(learner)).toMatchObject({ role: 'user' })
    expect(await freshUser(boss)).toMatchObject({ role: 'admin' })

    // better-auth's user administration endpoints are closed, to admins too: roles change only
    // through ADMIN_EMAILS and the CLI, which the audit log records.
    const learnerId = (await freshUser(learner) as { id?: string } | null)?.id
    for (const [method, path, body] of [
      ['POST', '/api/auth/admin/set-role', { userId: learnerId, role: 'admin' }],
      ['GET', '/api/auth/admin/list-users', undefined],
      ['POST', '/api/auth/admin/impersonate-user', { userId: learnerId }],
    ] as const) {
      expect((await boss.request(method, path, body)).status, path).toBe(404)
    }
    expect(await freshUser(learner)).toMatchObject({ role: 'user' })
  })

  it('an emailed code that signs in an unconfirmed account confirms it, and the first to confirm becomes admin', async () => {
    server = await startAppServer({ database: target, env: { DATA_DIR: dataDir } })
    const client = new Client(server)
    const email = 'by-code@example.com'
    expect((await client.request('POST', '/api/auth/sign-up/email', { name: 'Ada', email, password })).status).toBe(200)
    const sent = await client.request('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })
    expect(sent.status).toBe(200)
    const [mail] = await readOutbox(dataDir, { to: email, kind: 'sign-in-code' })
    expect((await client.request('POST', '/api/auth/sign-in/email-otp', { email, otp: mail?.code })).status).toBe(200)

    expect(await freshUser(client)).toMatchObject({ email, emailVerified: true, role: 'admin' })
    expect(server.logs.join('\n')).toMatch(/admin granted: first user to verify/)
  })
})

describe('the admin CLI', () => {
  const dirs: string[] = []
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
  })

  // While a server has the embedded database open, the CLI refuses: embedded-lock.test.ts.
  it('grants, lists and revokes on the embedded database once the server has stopped', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-cli-'))
    dirs.push(dataDir)
    const server = await startAppServer({ env: { DATA_DIR: dataDir } })
    const env = { DATA_DIR: dataDir, PORT: String(server.port) }
    await registerAndVerify(new Client(server), dataDir, { email: 'first@example.com', password })
    await registerAndVerify(new Client(server), dataDir, { email: 'ada@example.com', password })
    await server.stop()

    expect(await cli(['admin', 'grant', 'ADA@example.com'], env)).toMatchObject({ code: 0 })
    const listed = await cli(['admin', 'list'], env)
    expect(listed.output).toMatch(/^ada@example\.com\t/m)
    expect(listed.output).toMatch(/^first@example\.com\t/m)
    expect(await cli(['admin', 'revoke', 'first@example.com'], env)).toMatchObject({ code: 0 })
    expect((await cli(['admin', 'list'], env)).output).not.toMatch(/first@example\.com/)
    expect(await cli(['admin', 'grant', 'nobody@example.com'], env)).toMatchObject({ code: 1 })
    expect(await cli(['admin', 'promote'], env)).toMatchObject({ code: 2 })
    // Six processes that each start PGlite (WebAssembly) one after the other: on a loaded
    // two-core machine that alone took a minute.
  }, 150_000)

  it.runIf(databaseTargets().includes('postgres'))('works on PostgreSQL while the server runs', async () => {
    const database = await createTestDatabase()
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-cli-'))
    dirs.push(dataDir)
    try {
      const server = await startAppServer({ env: { DATA_DIR: dataDir, DATABASE_URL: database.url } })
      await registerAndVerify(new Client(server), dataDir, { email: 'first@example.com', password })
      const ada = new Client(server)
      await registerAndVerify(ada, dataDir, { email: 'ada@example.com', password })
      const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(server.port) }
      expect(await cli(['admin', 'grant', 'ada@example.com'], env)).toMatchObject({ code: 0 })
      expect(await freshUser(ada)).toMatchObject({ role: 'admin' })
      expect(await cli(['admin', 'revoke', 'ada@example.com'], env)).toMatchObject({ code: 0 })
      expect(await freshUser(ada)).toMatchObject({ role: 'user' })
      // A name saved before names were checked, with an escape that would clear the terminal and
      // an override that would reverse the rest of the line: printed as escapes, never raw.
      await database.query(`update "user" set name = $1 where email = 'first@example.com'`, ['Eve\u001b[2J\u202Etxt.exe'])
      const listed = await cli(['admin', 'list'], env)
      expect(listed.output).toContain('first@example.com\tEve\\u{1b}[2J\\u{202e}txt.exe')
      expect(listed.output.includes('\u001b') || listed.output.includes('\u202e')).toBe(false)
      await server.stop()
    } finally {
      await database.drop()
    }
  })
})

/**
 * Issue 29, finding 1: the last administrator cannot leave by deleting their own account, every
 * deletion is audited, and the first-verifier grant happens only while the database has never had
 * an administrator — not whenever it happens to have none.
 */
describe.each(databaseTargets())('the last administrator and the first one, on %s', (target) => {
  const lastAdmin = 'The last administrator keeps the role: make someone else an administrator first.'
  let dataDir: string
  let server: ServerProcess | undefined
  let database: TestDatabase | undefined

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-last-admin-'))
    if (target === 'postgres') database = await createTestDatabase()
  })
  afterEach(async () => {
    await server?.stop()
    server = undefined
    await database?.drop()
    database = undefined
    await rm(dataDir, { recursive: true, force: true })
  })

  /** Started again on the same port, so that the clients made before still reach it. */
  const start = async (env: Record<string, string> = {}) => {
    server = await startServer({
      env: {
        DATA_DIR: dataDir,
        AUTH_RATE_LIMIT_SCALE: '100',
        ...(database ? { DATABASE_URL: database.url } : {}),
        ...(server ? { PORT: String(server.port) } : {}),
        ...env,
      },
    })
    return server
  }
  /** Runs SQL on the server's database; on PGlite, whose folder one process holds, between two runs. */
  const edit = async (statements: string, env: Record<string, string> = {}) => {
    if (database) {
      await database.query(statements)
      return
    }
    await server?.stop()
    const db = await PGlite.create(path.join(dataDir, 'pglite'), { extensions: { pg_trgm } })
    try {
      await db.exec(statements)
    } finally {
      await db.close()
    }
    await start(env)
  }
  const signUp = async (email: string) => {
    if (!server) throw new Error('no server')
    const client = new Client(server)
    await registerAndVerify(client, dataDir, { email, password })
    return client
  }
  const deleteSelf = (client: Client) => client.request('POST', '/api/auth/delete-user', { password })

  it('with ADMIN_EMAILS unset: the only administrator cannot delete themselves (409); with another, it is audited', async () => {
    await start()
    const first = await signUp('first@example.com')
    expect(await freshUser(first)).toMatchObject({ role: 'admin' })
    const refused = await expectApiError(await deleteSelf(first), 409, 'conflict')
    expect(refused.message).toBe(lastAdmin)
    expect(await freshUser(first)).toMatchObject({ email: 'first@example.com', role: 'admin' })

    const second = await signUp('second@example.com')
    const secondId = ((await freshUser(second)) as { id?: string } | null)?.id
    expect((await first.request('PUT', `/api/admin/users/${secondId}/role`, { role: 'admin' })).status).toBe(200)
    expect((await deleteSelf(first)).status).toBe(200)
    expect(await freshUser(first)).toBeNull()
    const audit = await expectJson<AuditPage>(await second.request('GET', '/api/audit-log'))
    expect(audit.items[0]).toMatchObject({
      action: 'user.delete',
      actorEmail: 'first@example.com',
      targetId: 'first@example.com',
      before: { email: 'first@example.com', role: 'admin' },
      after: { email: 'first@example.com', deleted: true },
    })
    // A learner's own deletion is recorded too.
    const learner = await signUp('learner@example.com')
    expect((await deleteSelf(learner)).status).toBe(200)
    const after = await expectJson<AuditPage>(await second.request('GET', '/api/audit-log'))
    expect(after.items[0]).toMatchObject({ action: 'user.delete', targetId: 'learner@example.com', after: { deleted: true } })
  })

  it('with ADMIN_EMAILS unset: once there has been an administrator, nobody becomes one by verifying an email', async () => {
    await start()
    await signUp('first@example.com')
    // The administrator is lost some other way (an operator's SQL): no account holds the role now.
    await edit(`update "user" set role = 'user'`)
    const stranger = await signUp('stranger@example.com')
    expect(await freshUser(stranger)).toMatchObject({ role: 'user' })
    expect(server?.logs.join('\n')).not.toMatch(/stranger@example\.com[^\n]*admin granted|admin granted[^\n]*stranger@example\.com/)
    // The way back is the command line.
    const env: Record<string, string> = database ? { DATABASE_URL: database.url, DATA_DIR: dataDir } : { DATA_DIR: dataDir }
    if (!database) await server?.stop()
    expect(await cli(['admin', 'grant', 'stranger@example.com'], env)).toMatchObject({ code: 0 })
    if (!database) await start()
    expect(await freshUser(stranger)).toMatchObject({ role: 'admin' })
  }, 150_000)

  it('with ADMIN_EMAILS unset: a database that had an administrator before the upgrade remembers it', async () => {
    await start()
    await signUp('first@example.com')
    // As before the migration that keeps the fact: the table gone and nobody an administrator any
    // more (only the audit log remembers the grant); then that migration's SQL, as the upgrade runs
    // it. (Later migrations exist, so the migrator itself would not run an earlier one again.)
    const milestoneMigration = await readFile(path.join(migrationsFolder, '0008_admin_milestone.sql'), 'utf8')
    await edit(`
      drop table admin_milestone;
      update "user" set role = 'user';
      ${milestoneMigration.replaceAll('--> statement-breakpoint', '')}
    `)
    if (database) {
      await server?.stop()
      await start()
    }
    const stranger = await signUp('stranger@example.com')
    expect(await freshUser(stranger)).toMatchObject({ role: 'user' })
  }, 150_000)

  it('with ADMIN_EMAILS set: the listed administrator cannot delete themselves while the only one', async () => {
    await start({ ADMIN_EMAILS: 'boss@example.com' })
    const boss = await signUp('boss@example.com')
    expect(await freshUser(boss)).toMatchObject({ role: 'admin' })
    const refused = await expectApiError(await deleteSelf(boss), 409, 'conflict')
    expect(refused.message).toBe(lastAdmin)
    expect(await freshUser(boss)).toMatchObject({ role: 'admin' })
    // Nobody else is made an administrator by verifying, whatever happens to the listed one.
    await edit(`update "user" set role = 'user'`, { ADMIN_EMAILS: 'boss@example.com' })
    const stranger = await signUp('stranger@example.com')
    expect(await freshUser(stranger)).toMatchObject({ role: 'user' })
  }, 150_000)
})
