import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATA_EXPORTS } from '@/server/api/data-export/routes'
import type { AuditEntry } from '@/shared/audit-log'
import type { LanguageLevel } from '@/shared/levels'
import { type AdminWorld, password, startAdminWorld } from '../helpers/accounts'
import { Client, freshUser } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { allLevels } from '../helpers/levels'
import { expectApiError, expectJson } from '../helpers/server'

/*
 * GET /api/me/export: a person's copy of everything Lingua holds about them (a data-access
 * request), as one JSON file — and not one secret: no password hash, authenticator secret, backup
 * code or session token, neither as the person knows it nor as the database keeps it.
 */

interface DataExport {
  format: string
  exportedAt: string
  account: Record<string, unknown>
  picture: string | null
  signInMethods: { password: boolean; providers: unknown[]; passkeys: unknown[] }
  sessions: { id: string; [key: string]: unknown }[]
  learnerProfile: Record<string, unknown> | null
  assessments: unknown[]
  auditEntries: AuditEntry[]
  decks: Record<string, unknown>[]
  media: unknown[]
  deckCards: { ordinal: number; text: string; translationEn: string; tags: string[] }[]
}

const tokenCookie = 'lingua.session_token'

/** The current code of an authenticator app set up from `otpauth://…?secret=BASE32`. */
async function authenticatorCode(totpURI: string): Promise<string> {
  const secret = new URL(totpURI).searchParams.get('secret') ?? ''
  return createOTP(new TextDecoder().decode(base32.decode(secret))).totp()
}

/** The session token in a session cookie (`token.signature`, URL-encoded). */
const tokenOf = (client: Client) => decodeURIComponent(client.cookies.get(tokenCookie) ?? '').split('.')[0] ?? ''

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf)
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)])
}

describe.each(databaseTargets())('the copy of a person’s data on %s', (target) => {
  let world: AdminWorld
  let levels: Record<string, LanguageLevel>
  const email = `exported-${target}@example.com`
  /** The person: signed in on a laptop and, after two-step verification, on a phone. */
  let laptop: Client
  let phone: Client
  let personId: string
  let adminId: string
  let picture: string
  let totpURI: string
  let backupCodes: string[]
  /** The first copy, as downloaded, kept for the checks of secrets. */
  let exported: string

  const download = (client: Client) => client.request('GET', '/api/me/export')
  const idOf = async (client: Client) => ((await freshUser(client)) as { id?: string } | null)?.id ?? ''

  beforeAll(async () => {
    world = await startAdminWorld(target, 'export')
    levels = Object.fromEntries((await allLevels(world.visitor)).map((level) => [level.code, level]))
    laptop = await world.signUp(email)
    personId = await idOf(laptop)
    adminId = await idOf(world.admin)

    await expectJson(
      await laptop.request('PUT', '/api/me/profile', {
        language: 'fr',
        currentLevelId: levels.A2?.id,
        targetLevelId: levels.B2?.id,
      }),
    )
    // A deck of their own, with a word asked both ways.
    const deck = await expectJson<{ id: number }>(await laptop.request('POST', '/api/me/decks', { name: 'Mes mots', language: 'fr' }), 201)
    await expectJson(await laptop.request('POST', `/api/me/decks/${deck.id}/words`, { text: 'la lune', translationEn: 'the moon', tags: ['sky'], reversed: true }), 201)
    const file = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3060c0' } }).png().toBuffer()
    ;({ image: picture } = await expectJson<{ image: string }>(
      await laptop.request('PUT', '/api/me/avatar', undefined, {
        body: new Uint8Array(file),
        headers: { 'Content-Type': 'image/png', Origin: world.server.url, Cookie: laptop.cookieHeader() },
      }),
    ))

    const enabled = await expectJson<{ totpURI: string; backupCodes: string[] }>(
      await laptop.request('POST', '/api/auth/two-factor/enable', { password }),
    )
    ;({ totpURI, backupCodes } = enabled)
    expect(backupCodes.length).toBeGreaterThan(0)
    const confirmed = await laptop.request('POST', '/api/auth/two-factor/verify-totp', { code: await authenticatorCode(totpURI) })
    expect(confirmed.status).toBe(200)
    expect(await freshUser(laptop)).toMatchObject({ twoFactorEnabled: true })

    phone = new Client(world.server)
    expect(await (await phone.request('POST', '/api/auth/sign-in/email', { email, password })).json()).toMatchObject({
      twoFactorRedirect: true,
    })
    const verified = await phone.request('POST', '/api/auth/two-factor/verify-totp', { code: await authenticatorCode(totpURI) })
    expect(verified.status).toBe(200)

    // An administrator makes them one, then takes it back: two entries of the audit log about them.
    for (const role of ['admin', 'user']) {
      await expectJson(await world.admin.request('PUT', `/api/admin/users/${personId}/role`, { role }))
    }
    // And one about someone else, which is not theirs to download.
    const learnerId = await idOf(world.learner)
    await expectJson(await world.admin.request('PUT', `/api/admin/users/${learnerId}/role`, { role: 'admin' }))
  })
  afterAll(async () => {
    await world.stop()
  })

  it('downloads as a JSON file to save, never cached, with every section filled in', async () => {
    const response = await download(laptop)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const disposition = response.headers.get('content-disposition') ?? ''
    expect(disposition).toMatch(/^attachment; filename="lingua-data-\d{4}-\d\d-\d\d\.json"$/)
    exported = await response.text()
    const copy = JSON.parse(exported) as DataExport
    // The file is named after the day it was made.
    expect(disposition).toContain(`lingua-data-${copy.exportedAt.slice(0, 10)}.json`)

    expect(Object.keys(copy)).toEqual([
      'format',
      'exportedAt',
      'account',
      'picture',
      'signInMethods',
      'sessions',
      'learnerProfile',
      'assessments',
      'practice',
      'decks',
      'media',
      'auditEntries',
      'deckCards',
      'practiceReviews',
    ])
    expect(copy.decks).toMatchObject([{ name: 'Mes mots', language: 'fr', practiseDaily: true }])
    expect(copy.deckCards.map((card) => [card.ordinal, card.text, card.translationEn, card.tags])).toEqual([
      [0, 'la lune', 'the moon', ['sky']],
      [1, 'the moon', 'la lune', ['sky']],
    ])
    expect(copy.media).toEqual([])
    expect(copy.format).toBe('lingua-data-export/1')
    expect(Math.abs(Date.parse(copy.exportedAt) - Date.now())).toBeLessThan(60_000)
    expect(copy.account).toMatchObject({
      id: personId,
      name: 'Ada Lovelace',
      email,
      emailConfirmed: true,
      role: 'user',
      disabled: false,
      twoStepVerification: true,
    })
    expect(copy.account.lastSignInAt).toEqual(expect.any(String))
    expect(copy.picture).toBe(picture)
    expect(copy.signInMethods).toEqual({ password: true, providers: [], passkeys: [] })

    // The sessions are the two the person sees in their list, laptop and phone.
    const listed = await expectJson<{ id: string }[]>(await laptop.request('GET', '/api/auth/list-sessions'))
    expect(copy.sessions.map((session) => session.id).sort()).toEqual(listed.map((session) => session.id).sort())
    expect(copy.sessions).toHaveLength(2)
    for (const session of copy.sessions) {
      expect(Object.keys(session).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'ipAddress', 'lastActiveAt', 'userAgent'])
    }

    expect(copy.learnerProfile).toMatchObject({ language: 'fr', currentLevel: 'A2', targetLevel: 'B2' })
    expect(copy.learnerProfile?.updatedAt).toEqual(expect.any(String))

    // The grant and the revocation, oldest first, by the administrator; not the other person's.
    expect(copy.auditEntries.map((entry) => entry.action)).toEqual(['role.grant', 'role.revoke'])
    // The administrator is named by their role only: a learner's copy holds no one else's email.
    for (const entry of copy.auditEntries) {
      expect(entry).toMatchObject({ actor: 'administrator', targetType: 'user', targetId: email })
      expect(entry).not.toHaveProperty('actorEmail')
      expect(entry).not.toHaveProperty('actorId')
      expect(entry.after).toMatchObject({ id: personId })
    }
    expect(JSON.stringify(copy)).not.toContain(world.adminEmail)
    expect(JSON.stringify(copy)).not.toContain(adminId)
    expect(copy.auditEntries.map((entry) => entry.after)).toEqual([
      expect.objectContaining({ role: 'admin' }),
      expect.objectContaining({ role: 'user' }),
    ])
  })

  it('holds none of the secrets the person was given: authenticator secret, backup codes, session tokens, password', () => {
    const secret = new URL(totpURI).searchParams.get('secret') ?? ''
    const known = [
      ['the authenticator secret', secret],
      ['the authenticator secret, decoded', new TextDecoder().decode(base32.decode(secret))],
      ...backupCodes.map((code) => ['a backup code', code]),
      ['the laptop’s session token', tokenOf(laptop)],
      ['the phone’s session token', tokenOf(phone)],
      ['the password', password],
    ]
    for (const [what, value = ''] of known) {
      expect(value.length, what).toBeGreaterThanOrEqual(8)
      expect(exported.includes(value), what).toBe(false)
    }
    // No field that would carry one either.
    for (const key of ['token', 'secret', 'backupCodes', 'accessToken', 'refreshToken', 'idToken', 'hash']) {
      expect(keysOf(JSON.parse(exported)), key).not.toContain(key)
    }
  })

  it('is for signed-in people: 401 for a visitor', async () => {
    await expectApiError(await download(world.visitor), 401, 'unauthenticated')
  })

  it(`gives ${DATA_EXPORTS.points} copies per account in an hour, then 429 with Retry-After; another account is not held back`, async () => {
    const client = await world.signUp(`exported-often-${target}@example.com`)
    for (let i = 0; i < DATA_EXPORTS.points; i++) {
      const copy = await expectJson<DataExport>(await download(client))
      expect(copy.account.email).toBe(`exported-often-${target}@example.com`)
    }
    const refused = await download(client)
    const retryAfter = Number(refused.headers.get('retry-after'))
    await expectApiError(refused, 429, 'rate_limited')
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(DATA_EXPORTS.seconds)
    // Counted per account: another person on the same network still downloads theirs.
    await expectJson<DataExport>(await download(world.learner))
  })

  // Last: on PGlite the database can be opened only once the server has stopped.
  it('holds none of the secrets the database keeps: password hash, authenticator secret and backup codes, session tokens', async () => {
    const queries = {
      passwordHashes: ['select password as value from account where user_id = $1 and password is not null', [personId]],
      authenticator: ['select secret as value from two_factor where user_id = $1 union all select backup_codes from two_factor where user_id = $1', [personId]],
      sessionTokens: ['select token as value from session where user_id = $1', [personId]],
      providerTokens: [
        'select coalesce(access_token, refresh_token, id_token) as value from account where user_id = $1 and coalesce(access_token, refresh_token, id_token) is not null',
        [personId],
      ],
    } as const
    let secrets: Record<keyof typeof queries, string[]>
    if (target === 'postgres') {
      const database = world.server.database
      if (!database) throw new Error('the PostgreSQL server has a database')
      const read = async ([text, values]: readonly [string, readonly string[]]) =>
        (await database.query<{ value: string }>(text, [...values])).map((row) => row.value)
      secrets = {
        passwordHashes: await read(queries.passwordHashes),
        authenticator: await read(queries.authenticator),
        sessionTokens: await read(queries.sessionTokens),
        providerTokens: await read(queries.providerTokens),
      }
    } else {
      await world.server.stop()
      const db = await PGlite.create(path.join(world.dataDir, 'pglite'), { extensions: { pg_trgm } })
      try {
        const read = async ([text, values]: readonly [string, readonly string[]]) =>
          (await db.query<{ value: string }>(text, [...values])).rows.map((row) => row.value)
        secrets = {
          passwordHashes: await read(queries.passwordHashes),
          authenticator: await read(queries.authenticator),
          sessionTokens: await read(queries.sessionTokens),
          providerTokens: await read(queries.providerTokens),
        }
      } finally {
        await db.close()
      }
    }
    // What there is to leak: one password hash, the secret and the codes, the two sessions' tokens.
    expect(secrets.passwordHashes).toHaveLength(1)
    expect(secrets.authenticator).toHaveLength(2)
    expect(secrets.sessionTokens.sort()).toEqual([tokenOf(laptop), tokenOf(phone)].sort())
    expect(secrets.providerTokens).toEqual([])
    for (const [what, values] of Object.entries(secrets)) {
      for (const value of values) {
        expect(value.length, what).toBeGreaterThanOrEqual(16)
        expect(exported.includes(value), what).toBe(false)
      }
    }
  })
})
