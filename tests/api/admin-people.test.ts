import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readOutbox } from '@/server/mail/index'
import type { AuditPage } from '@/shared/audit-log'
import type { Overview, PeoplePage, PersonDetail } from '@/shared/people'
import { type AdminWorld, password, startAdminWorld } from '../helpers/accounts'
import { Client, freshUser } from '../helpers/auth-client'
import { cli } from '../helpers/cli'
import { databaseTargets } from '../helpers/database'
import { expectApiError, expectJson } from '../helpers/server'

const me = async (client: Client) => (await client.request('GET', '/api/me')).status
const idOf = async (client: Client) => ((await freshUser(client)) as { id: string } | null)?.id ?? ''
const signIn = (client: Client, email: string) => client.request('POST', '/api/auth/sign-in/email', { email, password })

describe.each(databaseTargets())('the administrators’ people API, on %s', (target) => {
  let world: AdminWorld
  let learnerId: string
  let adminId: string
  const learnerEmail = `learner-people-${target}@example.com`

  beforeAll(async () => {
    world = await startAdminWorld(target, 'people')
    learnerId = await idOf(world.learner)
    adminId = await idOf(world.admin)
  })
  afterAll(async () => {
    await world.stop()
  })

  it('is for administrators only: 401 for a visitor, 403 for a learner, on every path and method', async () => {
    const id = learnerId
    const calls = [
      ['GET', '/api/admin/overview'],
      ['GET', '/api/admin/users'],
      ['GET', `/api/admin/users/${id}`],
      ['PUT', `/api/admin/users/${id}/role`, { role: 'admin' }],
      ['POST', `/api/admin/users/${id}/disable`],
      ['POST', `/api/admin/users/${id}/enable`],
      ['POST', `/api/admin/users/${id}/sign-out`],
      ['DELETE', `/api/admin/users/${id}/sessions/abc`],
      ['POST', `/api/admin/users/${id}/resend-confirmation`],
      ['DELETE', `/api/admin/users/${id}`, { email: learnerEmail }],
    ] as const
    for (const [method, path, body] of calls) {
      await expectApiError(await world.visitor.request(method, path, body), 401, 'unauthenticated')
      await expectApiError(await world.learner.request(method, path, body), 403, 'forbidden')
    }
    // Nothing happened to the learner.
    expect(await me(world.learner)).toBe(200)
    expect(await freshUser(world.learner)).toMatchObject({ role: 'user' })
  })

  it('lists, searches (prefix and substring, any case), filters, sorts and pages the accounts', async () => {
    const first = await world.signUp(`zed.quinton-${target}@example.com`)
    await first.request('POST', '/api/auth/update-user', { name: 'Zed Quinton' })
    const list = (query: string) => world.admin.request('GET', `/api/admin/users?${query}`).then((r) => expectJson<PeoplePage>(r))

    const all = await list('')
    expect(all).toMatchObject({ page: 1, pageSize: 20, totalCapped: false })
    expect(all.total).toBe(all.items.length)
    // Newest first by default; no secret in a row.
    expect(all.items[0]?.email).toBe(`zed.quinton-${target}@example.com`)
    expect(Object.keys(all.items[0] ?? {}).sort()).toEqual(
      ['createdAt', 'disabled', 'email', 'emailVerified', 'id', 'image', 'lastSignInAt', 'name', 'role', 'twoFactorEnabled'].sort(),
    )
    expect(all.items[0]?.lastSignInAt).not.toBeNull()

    expect((await list('q=ZED')).items.map((row) => row.name)).toEqual(['Zed Quinton'])
    expect((await list('q=uinto')).items.map((row) => row.name)).toEqual(['Zed Quinton'])
    // Below three characters only the start matches: "ui" is inside "Quinton", not at a start.
    expect((await list('q=ui')).items).toEqual([])
    expect((await list('q=qu')).total).toBe(0)
    expect((await list('q=ze')).items.map((row) => row.name)).toEqual(['Zed Quinton'])
    // LIKE's wildcards are searched for as themselves.
    expect((await list('q=%25%25%25')).items).toEqual([])
    expect((await list('q=___')).items).toEqual([])

    expect((await list('role=admin')).items.map((row) => row.email)).toEqual([world.adminEmail])
    expect((await list('role=user')).items.map((row) => row.email)).not.toContain(world.adminEmail)
    expect((await list('confirmed=no')).items).toEqual([])
    expect((await list('mfa=yes')).items).toEqual([])
    expect((await list('disabled=yes')).items).toEqual([])

    const byEmail = (await list('sort=email')).items.map((row) => row.email)
    expect(byEmail).toEqual([...byEmail].sort())
    const byEmailDescending = (await list('sort=-email')).items.map((row) => row.email)
    expect(byEmailDescending).toEqual([...byEmail].reverse())

    const page2 = await list('pageSize=1&page=2&sort=email')
    expect(page2.items.map((row) => row.email)).toEqual([byEmail[1]])
    expect(page2.total).toBe(all.total)

    // Past the counted matches: narrow the search instead (no deep scan of a million rows).
    await expectApiError(await world.admin.request('GET', '/api/admin/users?page=51&pageSize=20'), 400, 'validation_failed')
    // A search counts (and pages) fewer matches: its count reads rows, not an index.
    expect((await list('q=lingua&page=10&pageSize=20')).items).toEqual([])
    await expectApiError(await world.admin.request('GET', '/api/admin/users?q=lingua&page=11&pageSize=20'), 400, 'validation_failed')
    for (const query of ['sort=password', 'role=root', 'confirmed=maybe', 'pageSize=101', 'page=0', `q=${'x'.repeat(101)}`]) {
      await expectApiError(await world.admin.request('GET', `/api/admin/users?${query}`), 400, 'validation_failed')
    }
  })

  it('shows one account without secrets; 404 for an unknown or malformed id', async () => {
    const person = await expectJson<PersonDetail>(await world.admin.request('GET', `/api/admin/users/${learnerId}`))
    expect(person).toMatchObject({ id: learnerId, email: learnerEmail, role: 'user', emailVerified: true, disabled: false, learner: null })
    expect(person.signInMethods).toEqual([expect.objectContaining({ kind: 'password', name: 'Password' })])
    expect(person.sessions.length).toBeGreaterThan(0)
    expect(JSON.stringify(person)).not.toMatch(/"(token|password|secret|backupCodes|publicKey|idToken|accessToken)":/i)
    const unknown = await world.admin.request('GET', `/api/admin/users/${'A'.repeat(32)}`)
    expect((await expectApiError(unknown, 404, 'not_found')).message).toBe('Account not found.')
    await expectApiError(await world.admin.request('GET', '/api/admin/users/not-an-id'), 404, 'not_found')
  })

  it('grants and revokes the admin role: audited, mailed, seen by the person without signing in again', async () => {
    const person = await world.signUp(`promoted-${target}@example.com`)
    const id = await idOf(person)
    // Cached in the session cookie as a user.
    expect((await expectJson<{ user: { role: string } }>(await person.request('GET', '/api/me'))).user.role).toBe('user')

    const granted = await world.admin.request('PUT', `/api/admin/users/${id}/role`, { role: 'admin' })
    expect((await expectJson<PersonDetail>(granted)).role).toBe('admin')
    // At once, though the cached copy was good for another minute.
    expect((await expectJson<{ user: { role: string } }>(await person.request('GET', '/api/me'))).user.role).toBe('admin')
    expect((await person.request('GET', '/api/admin/overview')).status).toBe(200)

    await world.admin.request('PUT', `/api/admin/users/${id}/role`, { role: 'user' })
    expect((await expectJson<{ user: { role: string } }>(await person.request('GET', '/api/me'))).user.role).toBe('user')
    await expectApiError(await person.request('GET', '/api/admin/overview'), 403, 'forbidden')

    const mails = await readOutbox(world.dataDir, { to: `promoted-${target}@example.com`, kind: 'account-access-changed' })
    expect(mails.map((mail) => mail.subject)).toEqual(['You are now a Lingua administrator', 'You are no longer a Lingua administrator'])
    const audit = await expectJson<AuditPage>(await world.admin.request('GET', '/api/audit-log'))
    expect(audit.items.slice(0, 2)).toEqual([
      expect.objectContaining({ action: 'role.revoke', actorEmail: world.adminEmail, before: { id, email: `promoted-${target}@example.com`, role: 'admin' }, after: { id, email: `promoted-${target}@example.com`, role: 'user' } }),
      expect.objectContaining({ action: 'role.grant', actorEmail: world.adminEmail }),
    ])
  })

  it('refuses to demote, disable or delete yourself (403) and keeps the last administrator (409)', async () => {
    await expectApiError(await world.admin.request('PUT', `/api/admin/users/${adminId}/role`, { role: 'user' }), 403, 'forbidden')
    await expectApiError(await world.admin.request('POST', `/api/admin/users/${adminId}/disable`), 403, 'forbidden')
    await expectApiError(await world.admin.request('DELETE', `/api/admin/users/${adminId}`, { email: world.adminEmail }), 403, 'forbidden')
    // Nor end their own sessions there (the account page does that): 403, still signed in.
    await expectApiError(await world.admin.request('POST', `/api/admin/users/${adminId}/sign-out`), 403, 'forbidden')
    const own = await expectJson<PersonDetail>(await world.admin.request('GET', `/api/admin/users/${adminId}`))
    await expectApiError(await world.admin.request('DELETE', `/api/admin/users/${adminId}/sessions/${own.sessions[0]?.id}`), 403, 'forbidden')
    expect(await me(world.admin)).toBe(200)
    // The command line goes through the same rules (on PostgreSQL: PGlite's folder is the server's).
    if (world.server.database) {
      const refused = await cli(['admin', 'revoke', world.adminEmail], { DATABASE_URL: world.server.database.url })
      expect(refused.code).toBe(1)
      expect(refused.output).toMatch(/The last administrator keeps the role/)
    }
    expect(await freshUser(world.admin)).toMatchObject({ role: 'admin' })
  })

  it('two administrators demoting each other at once leave one administrator', async () => {
    const a = world.admin
    const b = await world.signUp(`second-admin-${target}@example.com`)
    const bId = await idOf(b)
    await expectJson(await a.request('PUT', `/api/admin/users/${bId}/role`, { role: 'admin' }))
    const [ab, ba] = await Promise.all([
      a.request('PUT', `/api/admin/users/${bId}/role`, { role: 'user' }),
      b.request('PUT', `/api/admin/users/${adminId}/role`, { role: 'user' }),
    ])
    // The one that comes second is refused: 409 when both were checked as administrators before
    // either change (the lock orders them), 403 when the first had already demoted its actor.
    const [won, lost] = [ab.status, ba.status].sort()
    expect(won).toBe(200)
    expect([403, 409]).toContain(lost)
    const admins = await expectJson<PeoplePage>(await (ab.status === 200 ? a : b).request('GET', '/api/admin/users?role=admin'))
    expect(admins.total).toBe(1)
    // Put back as it was: the first administrator stays one.
    if (ba.status === 200) {
      await expectJson(await b.request('PUT', `/api/admin/users/${adminId}/role`, { role: 'admin' }))
      await expectJson(await a.request('PUT', `/api/admin/users/${bId}/role`, { role: 'user' }))
    }
    expect(await freshUser(a)).toMatchObject({ role: 'admin' })
  })

  it('disabling ends every session at once and refuses every way of signing in; enabling restores it', async () => {
    const email = `disabled-${target}@example.com`
    const person = await world.signUp(email)
    const id = await idOf(person)
    const otherDevice = new Client(world.server)
    expect((await signIn(otherDevice, email)).status).toBe(200)
    expect(await me(person)).toBe(200)

    const disabled = await expectJson<PersonDetail>(await world.admin.request('POST', `/api/admin/users/${id}/disable`))
    expect(disabled).toMatchObject({ disabled: true, sessions: [] })
    // Both sessions end now, not when their cached copies expire.
    expect(await me(person)).toBe(401)
    expect(await me(otherDevice)).toBe(401)
    const refused = await expectApiError(await signIn(new Client(world.server), email), 403, 'account_disabled')
    expect(refused.message).toBe('This account is disabled')
    // The emailed code too.
    const coded = new Client(world.server)
    expect((await coded.request('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })).status).toBe(200)
    const [codeMail] = await readOutbox(world.dataDir, { to: email, kind: 'sign-in-code' })
    await expectApiError(
      await coded.request('POST', '/api/auth/sign-in/email-otp', { email, otp: codeMail?.code ?? '' }),
      403,
      'account_disabled',
    )
    expect((await expectJson<PeoplePage>(await world.admin.request('GET', '/api/admin/users?disabled=yes'))).items.map((row) => row.email)).toEqual([email])

    await expectJson(await world.admin.request('POST', `/api/admin/users/${id}/enable`))
    expect((await signIn(new Client(world.server), email)).status).toBe(200)
    const mails = await readOutbox(world.dataDir, { to: email, kind: 'account-access-changed' })
    expect(mails.map((mail) => mail.subject)).toEqual(['Your Lingua account was disabled', 'Your Lingua account was enabled'])
  })

  it('signs out all sessions, or one; both audited', async () => {
    const email = `sessions-${target}@example.com`
    const person = await world.signUp(email)
    const id = await idOf(person)
    const second = new Client(world.server)
    expect((await signIn(second, email)).status).toBe(200)
    const { sessions } = await expectJson<PersonDetail>(await world.admin.request('GET', `/api/admin/users/${id}`))
    expect(sessions).toHaveLength(2)

    // One: the newest is the second device's.
    const [newest] = sessions
    expect((await world.admin.request('DELETE', `/api/admin/users/${id}/sessions/${newest?.id}`)).status).toBe(204)
    expect(await me(second)).toBe(401)
    expect(await me(person)).toBe(200)
    // Not another account's session.
    const learner = await expectJson<PersonDetail>(await world.admin.request('GET', `/api/admin/users/${learnerId}`))
    await expectApiError(await world.admin.request('DELETE', `/api/admin/users/${id}/sessions/${learner.sessions[0]?.id}`), 404, 'not_found')

    expect((await world.admin.request('POST', `/api/admin/users/${id}/sign-out`)).status).toBe(204)
    expect(await me(person)).toBe(401)
    const audit = await expectJson<AuditPage>(await world.admin.request('GET', '/api/audit-log'))
    expect(audit.items.slice(0, 2).map((entry) => entry.action)).toEqual(['user.sign-out', 'user.session-revoke'])
  })

  it('resends the confirmation email of an unconfirmed account, once a minute', async () => {
    const email = `unconfirmed-${target}@example.com`
    const registered = await new Client(world.server).request('POST', '/api/auth/sign-up/email', { name: 'Una', email, password })
    expect(registered.status).toBe(200)
    const { items } = await expectJson<PeoplePage>(await world.admin.request('GET', '/api/admin/users?confirmed=no'))
    const id = items.find((row) => row.email === email)?.id ?? ''
    // The sign-up's email went less than a minute ago.
    await expectApiError(await world.admin.request('POST', `/api/admin/users/${id}/resend-confirmation`), 429, 'email_recently_sent')
    await expectApiError(await world.admin.request('POST', `/api/admin/users/${learnerId}/resend-confirmation`), 409, 'conflict')
  })

  it('deletes an account once its email is typed; the account and its sessions are gone', async () => {
    const email = `deleted-${target}@example.com`
    const person = await world.signUp(email)
    const id = await idOf(person)
    const wrong = await expectApiError(await world.admin.request('DELETE', `/api/admin/users/${id}`, { email: 'other@example.com' }), 400, 'validation_failed')
    expect(wrong.fields?.email).toBeDefined()
    expect((await world.admin.request('DELETE', `/api/admin/users/${id}`, { email: email.toUpperCase() })).status).toBe(204)
    expect(await me(person)).toBe(401)
    await expectApiError(await world.admin.request('GET', `/api/admin/users/${id}`), 404, 'not_found')
    await expectApiError(await signIn(new Client(world.server), email), 401, 'invalid_credentials')
    const [mail] = await readOutbox(world.dataDir, { to: email, kind: 'account-access-changed' })
    expect(mail?.subject).toBe('Your Lingua account was deleted')
    const audit = await expectJson<AuditPage>(await world.admin.request('GET', '/api/audit-log'))
    expect(audit.items[0]).toMatchObject({ action: 'user.delete', targetId: email, after: { id, email, deleted: true } })
  })

  it('sums the user base up in the overview', async () => {
    const overview = await expectJson<Overview>(await world.admin.request('GET', '/api/admin/overview'))
    const { items, total } = await expectJson<PeoplePage>(await world.admin.request('GET', '/api/admin/users?pageSize=100'))
    expect(overview.accounts).toBe(total)
    expect(overview.confirmed).toBe(items.filter((row) => row.emailVerified).length)
    expect(overview.admins).toBe(1)
    expect(overview.newThisWeek).toBe(total)
    expect(overview.activeLast7Days).toBe(items.filter((row) => row.lastSignInAt).length)
    expect(overview.currentLevels.map((level) => level.code)).toEqual(['A1', 'A2', 'B1', 'B2', 'C1', 'C2'])
    expect(overview.currentLevelNone).toBe(total)
    expect(overview.signUpsPerWeek).toHaveLength(12)
    expect(overview.signUpsPerWeek.at(-1)?.count).toBe(total)
  })
})
