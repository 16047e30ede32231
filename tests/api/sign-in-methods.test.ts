import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SignInMethods } from '@/shared/sign-in-methods'
import { readOutbox } from '@/server/mail/index'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { Client } from '../helpers/auth-client'
import { expectApiError, expectJson } from '../helpers/server'

/**
 * Who may do what with sign-in methods (docs/security.md, "Provider sign-in … and passkeys"): the
 * endpoints of better-auth's passkey plugin and account linking as the app serves them, by a
 * visitor, an account owner and another account — on PostgreSQL, where a test can put a passkey in
 * place (making one takes an authenticator: tests/e2e/passkeys.spec.ts does it in a browser).
 */

const hasPostgres = Boolean(process.env.TEST_DATABASE_URL)

describe.skipIf(!hasPostgres)('sign-in methods: who may do what', () => {
  let world: AdminWorld
  let owner: Client
  let ownerEmail: string
  let passkeyId: string

  const db = () => {
    if (!world.server.database) throw new Error('the server runs on PostgreSQL')
    return world.server.database
  }
  const userId = async (email: string) =>
    (await db().query<{ id: string }>('select id from "user" where email = $1', [email]))[0]?.id ?? ''
  const passkeyNames = async () =>
    (await db().query<{ name: string | null }>('select name from passkey where id = $1', [passkeyId])).map((row) => row.name)

  beforeAll(async () => {
    world = await startAdminWorld('postgres', 'methods')
    ownerEmail = `owner-${randomUUID()}@example.com`
    owner = await world.signUp(ownerEmail)
    passkeyId = randomUUID()
    await db().query(
      `insert into passkey (id, name, public_key, user_id, credential_id, counter, device_type, backed_up, created_at)
       values ($1, 'MacBook', 'cHVibGlj', $2, $3, 0, 'singleDevice', false, now())`,
      [passkeyId, await userId(ownerEmail), randomUUID()],
    )
  })
  afterAll(() => world.stop())

  it('a visitor may only ask for a sign-in challenge', async () => {
    const { visitor } = world
    const challenge = await expectJson<{ challenge: string; userVerification: string; rpId: string }>(
      await visitor.request('GET', '/api/auth/passkey/generate-authenticate-options'),
    )
    expect(challenge.userVerification).toBe('required')
    expect(challenge.rpId).toBe('127.0.0.1')
    for (const [method, path, body] of [
      ['GET', '/api/me/sign-in-methods', undefined],
      ['GET', '/api/auth/passkey/list-user-passkeys', undefined],
      ['GET', '/api/auth/passkey/generate-register-options', undefined],
      ['POST', '/api/auth/passkey/verify-registration', { response: {} }],
      ['POST', '/api/auth/passkey/update-passkey', { id: passkeyId, name: 'Mine now' }],
      ['POST', '/api/auth/passkey/delete-passkey', { id: passkeyId }],
      ['POST', '/api/auth/unlink-account', { accountId: 'x' }],
    ] as const) {
      await expectApiError(await visitor.request(method, path, body), 401, 'unauthenticated')
    }
    expect(await passkeyNames()).toEqual(['MacBook'])
  })

  it('a passkey sign-in with no challenge or an unknown credential signs nobody in', async () => {
    const visitor = new Client(world.server)
    await expectApiError(
      await visitor.request('POST', '/api/auth/passkey/verify-authentication', { response: { id: 'nope' } }),
      400,
      'invalid_token',
    )
    await visitor.request('GET', '/api/auth/passkey/generate-authenticate-options')
    await expectApiError(
      await visitor.request('POST', '/api/auth/passkey/verify-authentication', { response: { id: 'nope' } }),
      401,
      'invalid_credentials',
    )
    expect(visitor.cookies.has('lingua.session_token')).toBe(false)
  })

  it('lists the owner’s methods, and no one else’s', async () => {
    const mine = await expectJson<SignInMethods>(await owner.request('GET', '/api/me/sign-in-methods'))
    expect(mine).toMatchObject({ password: true, providers: [], count: 2 })
    expect(mine.passkeys).toEqual([
      expect.objectContaining({ id: passkeyId, name: 'MacBook', lastUsedAt: null, deviceType: 'singleDevice' }),
    ])
    const theirs = await expectJson<SignInMethods>(await world.learner.request('GET', '/api/me/sign-in-methods'))
    expect(theirs).toMatchObject({ password: true, passkeys: [], count: 1 })
  })

  it('another account can neither rename nor remove the passkey: 404, as for one that does not exist', async () => {
    for (const id of [passkeyId, randomUUID()]) {
      await expectApiError(
        await world.learner.request('POST', '/api/auth/passkey/update-passkey', { id, name: 'Mine now' }),
        404,
        'not_found',
      )
      await expectApiError(await world.admin.request('POST', '/api/auth/passkey/delete-passkey', { id }), 404, 'not_found')
    }
    expect(await passkeyNames()).toEqual(['MacBook'])
  })

  it('the owner renames it with a readable name only, audited and mailed', async () => {
    for (const name of ['', '   ', 'x'.repeat(61), 'bad\u202ename']) {
      const refused = await expectApiError(
        await owner.request('POST', '/api/auth/passkey/update-passkey', { id: passkeyId, name }),
        400,
        'validation_failed',
      )
      expect(refused.fields?.name).toBeDefined()
    }
    await expectJson(await owner.request('POST', '/api/auth/passkey/update-passkey', { id: passkeyId, name: 'Work laptop' }))
    expect(await passkeyNames()).toEqual(['Work laptop'])
    const [entry] = await db().query<{ action: string; before: unknown; after: unknown }>(
      "select action, before, after from audit_log where target_id = $1 and action = 'passkey.rename'",
      [ownerEmail],
    )
    expect(entry).toEqual({
      action: 'passkey.rename',
      before: { passkey: passkeyId, name: 'MacBook' },
      after: { passkey: passkeyId, name: 'Work laptop' },
    })
    const [mail] = await readOutbox(world.dataDir, { to: ownerEmail, kind: 'sign-in-methods-changed' })
    expect(mail?.text).toContain('renamed to “Work laptop”')
  })

  it('the owner removes it while a password remains; then the password is the last way in', async () => {
    await expectJson(await owner.request('POST', '/api/auth/passkey/delete-passkey', { id: passkeyId }))
    expect(await passkeyNames()).toEqual([])
    const actions = await db().query<{ action: string }>(
      "select action from audit_log where target_id = $1 and action like 'passkey.%' order by id",
      [ownerEmail],
    )
    expect(actions.map((row) => row.action)).toEqual(['passkey.rename', 'passkey.remove'])

    const methods = await expectJson<SignInMethods>(await owner.request('GET', '/api/me/sign-in-methods'))
    expect(methods.count).toBe(1)
    const [password] = await db().query<{ id: string }>(
      "select id from account where user_id = $1 and provider_id = 'credential'",
      [await userId(ownerEmail)],
    )
    await expectApiError(
      await owner.request('POST', '/api/auth/unlink-account', { accountId: password?.id }),
      409,
      'conflict',
    )
    expect(await db().query('select 1 from account where id = $1', [password?.id])).toHaveLength(1)
  })
})
