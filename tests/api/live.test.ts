import { mkdtemp, readFile, readdir, readlink, rm } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AuditPage } from '@/shared/audit-log'
import type { LanguageLevel, LevelPage } from '@/shared/levels'
import { type AdminWorld, password, startAdminWorld } from '../helpers/accounts'
import { Client, freshUser, registerAndVerify } from '../helpers/auth-client'
import { type TestDatabase, createTestDatabase, databaseTargets } from '../helpers/database'
import { EventStream, type OpenStreamOptions, type StreamEvent, openReadyStream } from '../helpers/event-stream'
import { allLevels, createLevel } from '../helpers/levels'
import { type ServerProcess, expectApiError, expectJson, jsonLogs, projectRoot, startServer } from '../helpers/server'

/**
 * The live stream, `GET /api/events` (Server-Sent Events, src/server/events): who hears what, how a
 * stream ends with its session, how a reconnect resumes, the level reads it keeps fresh (ETag,
 * 304, the in-process cache), two instances on one database, and many streams coming and going.
 * Every stream is a real connection to a real server (tests/helpers/event-stream.ts).
 *
 * An instance hears a change a moment after it commits: a stream opened right after a change may
 * still be sent it. The tests therefore count only what comes after a barrier (LevelEditor.barrier).
 */


/** A heartbeat comment is written to every stream this often (LIVE_HEARTBEAT_MS). */
const HEARTBEAT_MS = 15_000

const idOf = async (client: Client) => ((await freshUser(client)) as { id?: string } | null)?.id ?? ''
const nameOf = async (client: Client) => ((await freshUser(client)) as { name?: string } | null)?.name ?? ''
const signIn = (client: Client, email: string) => client.request('POST', '/api/auth/sign-in/email', { email, password })

/** An event's data as an object. */
const dataOf = (event: StreamEvent) => event.data as Record<string, unknown>

/** The `levels` event about level `id` with `action`, after the event id `after`. */
const levelsEvent = (id: number | null, action: string, after = 0) => (event: StreamEvent) =>
  event.event === 'levels' && (event.id ?? 0) > after && dataOf(event).id === id && dataOf(event).action === action

/** The events a stream received after the event id `after`, `ready` and id-less ones left out. */
const eventsAfter = (stream: EventStream, after: number) => stream.events.filter((event) => event.event !== 'ready' && (event.id ?? 0) > after)

/** Names and data, for comparing whole sequences. */
const summary = (events: StreamEvent[]) => events.map((event) => [event.event, event.data])

/**
 * Ids are in commit order: strictly increasing over the events that carry one, `ready` excepted
 * (it repeats the id of the last event, which this stream may not have been sent).
 */
function expectIdsInOrder(stream: EventStream) {
  const ids = stream.events.filter((event) => event.event !== 'ready' && event.id !== undefined).map((event) => event.id ?? 0)
  expect(ids, 'event ids in commit order, none twice').toEqual([...new Set(ids)].sort((a, b) => a - b))
}

/**
 * Changes levels as an administrator, following each level's version from the answers (not from
 * a read, which the cache may answer a moment before it hears of the change).
 */
class LevelEditor {
  readonly #versions = new Map<number, number>()
  #barriers = 0
  constructor(
    readonly admin: Client,
    /** Makes the codes of this editor's levels its own. */
    readonly tag: string,
  ) {}

  async create(code: string): Promise<LanguageLevel> {
    const level = await createLevel(this.admin, { code: `${code}-${this.tag}` })
    this.#versions.set(level.id, level.version)
    return level
  }

  async rename(id: number, name: string): Promise<LanguageLevel> {
    const version = this.#versions.get(id) ?? (await expectJson<LanguageLevel>(await this.admin.request('GET', `/api/language-levels/${id}`))).version
    const level = await expectJson<LanguageLevel>(await this.admin.request('PATCH', `/api/language-levels/${id}`, { name, version }))
    this.#versions.set(id, level.version)
    return level
  }

  async delete(id: number): Promise<void> {
    expect((await this.admin.request('DELETE', `/api/language-levels/${id}`)).status).toBe(204)
    this.#versions.delete(id)
  }

  /**
   * A change every stream given hears (a new level): each instance hears the events in commit
   * order, so once a stream has it, it has every earlier event it may hear. Resolves to its id.
   */
  async barrier(...streams: EventStream[]): Promise<number> {
    const level = await this.create(`B${++this.#barriers}`)
    const heard = await Promise.all(streams.map((one) => one.waitFor(levelsEvent(level.id, 'create'), 5000, `barrier ${level.code}`)))
    return heard[0]?.id ?? 0
  }
}

describe.each(databaseTargets())('the live event stream on %s', (target) => {
  let world: AdminWorld
  let editor: LevelEditor
  let adminId: string
  /**
   * Opened first and left open: the last test reads its heartbeats, and tests wait on it until the
   * server has heard a change (a stream that starts while a change's notification is on its way may
   * be sent it twice: see the two-instance tests).
   */
  let longLived: EventStream
  let longLivedSince: number
  /** Every stream a test opens is closed after it. */
  const open: EventStream[] = []
  const stream = async (client?: Client, options: Omit<OpenStreamOptions, 'client'> = {}) => {
    const opened = await openReadyStream(world.server, { ...options, client })
    open.push(opened.stream)
    return opened
  }

  beforeAll(async () => {
    world = await startAdminWorld(target, 'live')
    editor = new LevelEditor(world.admin, target.slice(0, 2))
    adminId = await idOf(world.admin)
    longLivedSince = Date.now()
    longLived = (await openReadyStream(world.server)).stream
  })
  afterEach(() => {
    for (const one of open.splice(0)) one.close()
  })
  afterAll(async () => {
    longLived?.close()
    await world?.stop()
  })

  describe('who hears what', () => {
    it('sends level changes to everyone and audit rows to administrators only', async () => {
      const level = await editor.create('W1')
      const { stream: visitor } = await stream(world.visitor)
      const { stream: learner } = await stream(world.learner)
      const { stream: admin } = await stream(world.admin)
      for (const one of [visitor, learner, admin]) {
        expect(one.headers['content-type']).toMatch(/^text\/event-stream/)
        expect(one.headers['cache-control']).toBe('no-store')
      }
      const since = await editor.barrier(visitor, learner, admin)

      await editor.rename(level.id, 'Renamed live')
      const heard = await Promise.all([visitor, learner, admin].map((one) => one.waitFor(levelsEvent(level.id, 'update', since))))
      for (const event of heard) expect(event.data).toEqual({ action: 'update', id: level.id })
      // One event, one id, whoever hears it.
      expect(new Set(heard.map((event) => event.id)).size).toBe(1)
      const first = heard[0]?.id ?? 0

      const audit = await admin.waitForEvent('audit', (data) => data.action === 'level.update' && data.targetId === String(level.id))
      expect(typeof dataOf(audit).id).toBe('number')
      expect(audit.data).toEqual({
        id: dataOf(audit).id,
        action: 'level.update',
        targetType: 'language_level',
        targetId: String(level.id),
        actorId: adminId,
        actorName: await nameOf(world.admin),
      })
      // It announces the row of the audit log, written in the change's transaction, before the
      // change's `levels` event.
      const log = await expectJson<AuditPage>(await world.admin.request('GET', '/api/audit-log'))
      expect(log.items.find((entry) => entry.id === dataOf(audit).id)).toMatchObject({ action: 'level.update', targetId: String(level.id) })
      expect(audit.id).toBeLessThan(first)

      // A second change as a barrier: once the learner and the visitor hear it, whatever the
      // first one sent them has arrived.
      await editor.rename(level.id, 'Renamed live again')
      for (const one of [visitor, learner, admin]) await one.waitFor(levelsEvent(level.id, 'update', first))
      for (const one of [visitor, learner]) {
        expect(one.raw).not.toContain('event: audit')
        expect(eventsAfter(one, since).map((event) => event.event)).toEqual(['levels', 'levels'])
      }
      expect(eventsAfter(admin, since).map((event) => event.event)).toEqual(['audit', 'levels', 'audit', 'levels'])
      for (const one of [visitor, learner, admin]) expectIdsInOrder(one)
    })

    it('sends a person the changes of their own account, and never those of another account', async () => {
      const other = await world.signUp(`other-live-${target}@example.com`)
      const { stream: learner } = await stream(world.learner)
      const { stream: visitor } = await stream(world.visitor)
      const { stream: admin } = await stream(world.admin)
      const { stream: onOther } = await stream(other)
      const all = [learner, visitor, admin, onOther]
      const since = await editor.barrier(...all)

      expect((await world.learner.request('POST', '/api/auth/update-user', { name: 'Learner Renamed' })).status).toBe(200)
      const own = await learner.waitFor((event) => event.event === 'account' && (event.id ?? 0) > since)
      // The reason only: nothing about sessions, roles or other people.
      expect(own.data).toEqual({ reason: 'profile' })
      // The administrator's and the other learner's changes are theirs alone.
      const adminName = await nameOf(world.admin)
      expect((await world.admin.request('POST', '/api/auth/update-user', { name: 'Admin Renamed' })).status).toBe(200)
      expect((await world.admin.request('POST', '/api/auth/update-user', { name: adminName })).status).toBe(200)
      expect((await other.request('POST', '/api/auth/update-user', { name: 'Other Renamed' })).status).toBe(200)

      // Another barrier: what the changes above sent has arrived.
      const until = await editor.barrier(...all)
      const accountEvents = (one: EventStream) => eventsAfter(one, since).filter((event) => event.event === 'account' && (event.id ?? 0) < until)
      expect(accountEvents(learner)).toEqual([own])
      expect(accountEvents(visitor)).toEqual([])
      expect(summary(accountEvents(admin))).toEqual([['account', { reason: 'profile' }], ['account', { reason: 'profile' }]])
      expect(summary(accountEvents(onOther))).toEqual([['account', { reason: 'profile' }]])
      for (const one of all) expectIdsInOrder(one)
    })

    it('sends audit rows to a learner made an administrator, from that change on, and no more once the role is taken back', async () => {
      const person = await world.signUp(`promoted-live-${target}@example.com`)
      const personId = await idOf(person)
      const level = await editor.create('W3')
      const { stream: live } = await stream(person)
      const since = await editor.barrier(live)
      expect(live.named('audit')).toEqual([])

      await expectJson(await world.admin.request('PUT', `/api/admin/users/${personId}/role`, { role: 'admin' }))
      const granted = await live.waitFor((event) => event.event === 'account' && (event.id ?? 0) > since)
      expect(granted.data).toEqual({ reason: 'access' })
      // Authorized by the role at delivery: the grant's own audit row, if heard, comes after the
      // change of role, never before it.
      expect(live.named('audit').filter((event) => (event.id ?? 0) < (granted.id ?? 0))).toEqual([])

      await editor.rename(level.id, 'Heard by the new administrator')
      const audit = await live.waitForEvent('audit', (data) => data.action === 'level.update' && data.targetId === String(level.id))
      expect(audit.id).toBeGreaterThan(granted.id ?? 0)

      await expectJson(await world.admin.request('PUT', `/api/admin/users/${personId}/role`, { role: 'user' }))
      const revoked = await live.waitFor((event) => event.event === 'account' && (event.id ?? 0) > (granted.id ?? 0))
      expect(revoked.data).toEqual({ reason: 'access' })
      await editor.rename(level.id, 'Not for a learner')
      await live.waitFor(levelsEvent(level.id, 'update', revoked.id))
      // Nothing of the audit log once the role was taken back: not even the revoke's own row,
      // which the same transaction wrote (at its delivery, the person is no administrator).
      expect(eventsAfter(live, audit.id ?? 0).filter((event) => event.event === 'audit')).toEqual([])
      // The stream stayed open through both changes.
      expect(live.ended).toBe(false)
      expectIdsInOrder(live)
    })
  })

  describe('streams end with their session', () => {
    /** An account signed in on two devices, each with a stream, past a barrier. */
    const twoDevices = async (email: string) => {
      const laptop = await world.signUp(email)
      const phone = new Client(world.server)
      expect((await signIn(phone, email)).status).toBe(200)
      const { stream: onLaptop } = await stream(laptop)
      const { stream: onPhone } = await stream(phone)
      const since = await editor.barrier(onLaptop, onPhone)
      return { laptop, phone, onLaptop, onPhone, since }
    }

    it('ends the stream of a session that signs out, after saying so; the account’s other session stays open and is told', async () => {
      const { laptop, onLaptop, onPhone, since } = await twoDevices(`sessions-live-${target}@example.com`)

      expect((await laptop.request('POST', '/api/auth/sign-out', {})).status).toBe(200)
      await onLaptop.waitForEnd()
      expect(onLaptop.endedByServer).toBe(true)
      expect(onLaptop.events.at(-1)).toEqual({ id: undefined, event: 'session-ended', data: {} })
      expect(onLaptop.named('session-ended')).toHaveLength(1)

      const told = await onPhone.waitFor((event) => event.event === 'account' && (event.id ?? 0) > since)
      expect(told.data).toEqual({ reason: 'session' })
      // Still open: it hears what comes next.
      await editor.barrier(onPhone)
      expect(onPhone.ended).toBe(false)
      expect(onPhone.named('session-ended')).toEqual([])
    })

    it('ends the stream of a session revoked from another device, and only that one', async () => {
      const { laptop, phone, onLaptop, onPhone, since } = await twoDevices(`revoked-live-${target}@example.com`)
      const phoneSession = await expectJson<{ session: { id: string } }>(await phone.request('GET', '/api/auth/get-session?disableCookieCache=true'))

      expect((await laptop.request('DELETE', `/api/me/sessions/${phoneSession.session.id}`)).status).toBe(204)
      await onPhone.waitForEnd()
      expect(onPhone.endedByServer).toBe(true)
      expect(onPhone.events.at(-1)?.event).toBe('session-ended')
      const told = await onLaptop.waitFor((event) => event.event === 'account' && (event.id ?? 0) > since)
      expect(told.data).toEqual({ reason: 'session' })
      await editor.barrier(onLaptop)
      expect(onLaptop.ended).toBe(false)
    })

    it.each([
      ['disables', (id: string) => ['POST', `/api/admin/users/${id}/disable`, undefined] as const],
      ['deletes', (id: string, email: string) => ['DELETE', `/api/admin/users/${id}`, { email }] as const],
    ])('ends every stream of an account an administrator %s, and no one else’s', async (change, request) => {
      const email = `${change}-live-${target}@example.com`
      const laptop = await world.signUp(email)
      const phone = new Client(world.server)
      expect((await signIn(phone, email)).status).toBe(200)
      const id = await idOf(laptop)
      // Two streams of one session (two tabs), one of the other.
      const mine = (await Promise.all([stream(laptop), stream(laptop), stream(phone)])).map((opened) => opened.stream)
      const { stream: learner } = await stream(world.learner)
      const { stream: admin } = await stream(world.admin)

      const [method, pathname, body] = request(id, email)
      const answer = await world.admin.request(method, pathname, body)
      expect(answer.ok, await answer.clone().text()).toBe(true)
      for (const ended of mine) {
        await ended.waitForEnd()
        expect(ended.endedByServer).toBe(true)
        expect(ended.events.at(-1)?.event).toBe('session-ended')
        expect(ended.named('session-ended')).toHaveLength(1)
      }
      // The others stay open and hear what comes next.
      await editor.barrier(learner, admin)
      for (const one of [learner, admin]) expect(one.ended).toBe(false)
    })

    // A reconnect is sent the `account` event of the old disable again: taken for a disable now,
    // it would end the stream of a session made after the account was enabled again, and, as
    // `session-ended` has no id, every reconnect after it, for as long as the event is kept.
    it('does not end the stream of a new session because what it missed holds a disable since undone', async () => {
      const email = `reenabled-live-${target}@example.com`
      const first = await world.signUp(email)
      const id = await idOf(first)
      const { stream: before } = await stream(first)
      const left = await editor.barrier(before)
      before.close()

      const { stream: watching } = await stream(world.admin)
      await expectJson(await world.admin.request('POST', `/api/admin/users/${id}/disable`))
      await expectJson(await world.admin.request('POST', `/api/admin/users/${id}/enable`))
      await watching.waitForEvent('audit', (data) => data.action === 'user.enable' && data.targetId === email)
      const again = new Client(world.server)
      expect((await signIn(again, email)).status).toBe(200)

      const resumed = await EventStream.open(world.server, { client: again, lastEventId: String(left) })
      open.push(resumed)
      await resumed.waitFor((event) => event.event === 'ready' || event.event === 'session-ended')
      expect(resumed.named('session-ended'), resumed.raw).toEqual([])
      // What it missed about the account is told (access, the ended session, access), then `ready`.
      expect(resumed.events.at(-1)?.event).toBe('ready')
      expect(resumed.named('account').length).toBeGreaterThan(0)
      await editor.barrier(resumed)
      expect(resumed.ended).toBe(false)
    })
  })

  describe('resuming with Last-Event-ID', () => {
    it('sends a reconnecting client exactly the events it missed, those it may hear, in order, then ready', async () => {
      const level = await editor.create('R1')
      const clients = { visitor: world.visitor, learner: world.learner, admin: world.admin }
      const firstStreams = await Promise.all(Object.values(clients).map(async (client) => (await stream(client)).stream))
      // Where each left: the id of the last event it received, as EventSource keeps it.
      const left = await editor.barrier(...firstStreams)
      for (const one of firstStreams) one.close()

      // Missed: three changes of levels (each with its audit row) and one of the learner's account.
      const created = await editor.create('R2')
      await editor.rename(level.id, 'Renamed while away')
      expect((await world.learner.request('POST', '/api/auth/update-user', { name: 'Learner Away' })).status).toBe(200)
      await editor.delete(created.id)
      await longLived.waitFor(levelsEvent(created.id, 'delete'))

      const resumed: Record<string, EventStream> = {}
      for (const [who, client] of Object.entries(clients)) resumed[who] = (await stream(client, { lastEventId: String(left) })).stream
      const levelChanges = [
        ['levels', { action: 'create', id: created.id }],
        ['levels', { action: 'update', id: level.id }],
        ['levels', { action: 'delete', id: created.id }],
      ]
      const ready = ['ready', {}]
      expect(summary(resumed.visitor?.events ?? [])).toEqual([...levelChanges, ready])
      expect(summary(resumed.learner?.events ?? [])).toEqual([levelChanges[0], levelChanges[1], ['account', { reason: 'profile' }], levelChanges[2], ready])
      const audit = (action: string, id: number): [string, unknown] => ['audit', expect.objectContaining({ action, targetId: String(id) }) as unknown]
      expect(summary(resumed.admin?.events ?? [])).toEqual([
        audit('level.create', created.id),
        levelChanges[0],
        audit('level.update', level.id),
        levelChanges[1],
        audit('level.delete', created.id),
        levelChanges[2],
        ready,
      ])
      // `ready` carries the id of the last event, heard or not: where the next reconnect resumes.
      const last = resumed.admin?.events.at(-2)?.id ?? 0
      for (const one of Object.values(resumed)) {
        expectIdsInOrder(one)
        expect(one.events.every((event) => (event.id ?? 0) > left)).toBe(true)
        expect(one.events.at(-1)?.id).toBe(last)
      }

      // Live from there, without a repeat.
      await editor.rename(level.id, 'Renamed once back')
      for (const one of Object.values(resumed)) {
        await one.waitFor(levelsEvent(level.id, 'update', last))
        expectIdsInOrder(one)
      }
    })

    it('replays to a former administrator none of the audit rows of their time as one: the role now decides', async () => {
      const person = await world.signUp(`former-admin-live-${target}@example.com`)
      const personId = await idOf(person)
      const level = await editor.create('R3')
      const { stream: first } = await stream(person)
      const left = await editor.barrier(first)
      first.close()

      // Away: made an administrator, audit rows written, then the role taken back.
      await expectJson(await world.admin.request('PUT', `/api/admin/users/${personId}/role`, { role: 'admin' }))
      await editor.rename(level.id, 'While an administrator')
      await expectJson(await world.admin.request('PUT', `/api/admin/users/${personId}/role`, { role: 'user' }))
      await editor.rename(level.id, 'After')
      await longLived.waitFor(levelsEvent(level.id, 'update', left))
      await editor.barrier(longLived)

      // GET /api/audit-log says 403 now, and so does the replay: no audit row at all.
      await expectApiError(await person.request('GET', '/api/audit-log'), 403, 'forbidden')
      const { stream: resumed } = await stream(person, { lastEventId: String(left) })
      expect(resumed.named('audit')).toEqual([])
      expect(summary(resumed.events.filter((event) => event.event === 'account'))).toEqual([
        ['account', { reason: 'access' }],
        ['account', { reason: 'access' }],
      ])
      // And live: a change now is heard as a level change only.
      const until = await editor.barrier(resumed)
      expect(resumed.named('audit')).toEqual([])
      expect(until).toBeGreaterThan(left)
    })

    it('replays the last 1000 missed events, and answers reset when more were missed', async () => {
      // Each rename is two events (its audit row, then `levels`): 501 of them make 1002.
      const levels = (await allLevels(world.admin)).slice(0, 6)
      const rounds = Math.ceil(501 / levels.length)
      for (let round = 0; round < rounds; round++) {
        await Promise.all(levels.map((level) => editor.rename(level.id, `${level.name} #${round}`)))
      }
      const { stream: now } = await stream(world.visitor)
      const newest = await editor.barrier(now)

      // 1000 missed: all of them (to the visitor, those it may hear).
      const { stream: admin } = await stream(world.admin, { lastEventId: String(newest - 1000) })
      expect(admin.named('reset')).toEqual([])
      expect(admin.events.map((event) => event.id)).toEqual([...Array.from({ length: 1000 }, (_, i) => newest - 999 + i), newest])
      expect(admin.events.at(-1)?.event).toBe('ready')
      const { stream: visitor } = await stream(world.visitor, { lastEventId: String(newest - 1000) })
      expect(visitor.named('levels')).toHaveLength(500)
      expect(visitor.named('audit')).toEqual([])
      // 1001: reset, then ready; nothing replayed.
      for (const client of [world.admin, world.visitor]) {
        const { stream: tooFar } = await stream(client, { lastEventId: String(newest - 1001) })
        expect(tooFar.events).toEqual([
          { id: undefined, event: 'reset', data: {} },
          { id: newest, event: 'ready', data: {} },
        ])
      }
    }, 120_000)

    it.each([
      ['that is not a number', 'abc'],
      ['that is negative', '-1'],
      ['in exponent notation', '1e3'],
      ['that is a fraction', '1.5'],
      ['in hexadecimal', '0x10'],
      ['with a sign', '+5'],
      ['beyond any integer the server keeps', '9'.repeat(20)],
      ['10,000 characters long', '1'.repeat(10_000)],
      ['made of words', 'a b c'],
    ])('answers a Last-Event-ID %s with reset, then ready', async (_, lastEventId) => {
      const { stream: bad, ready } = await stream(world.visitor, { lastEventId })
      expect(bad.events).toEqual([
        { id: undefined, event: 'reset', data: {} },
        { id: ready, event: 'ready', data: {} },
      ])
      expect(bad.ended).toBe(false)
    })

    it('answers reset to a Last-Event-ID ahead of every event, then streams as usual', async () => {
      const { stream: first } = await stream(world.visitor)
      const last = await editor.barrier(first)
      for (const ahead of [last + 1, last + 1_000_000, 999_999_999_999_999]) {
        const { stream: early } = await stream(world.visitor, { lastEventId: String(ahead) })
        expect(early.events).toEqual([
          { id: undefined, event: 'reset', data: {} },
          { id: last, event: 'ready', data: {} },
        ])
      }
      const { stream: current } = await stream(world.visitor, { lastEventId: String(last) })
      expect(current.events).toEqual([{ id: last, event: 'ready', data: {} }])
      await editor.barrier(current)
    })

    it('treats an empty Last-Event-ID as none', async () => {
      const { stream: empty } = await stream(world.visitor, { lastEventId: '' })
      expect(empty.events.map((event) => event.event)).toEqual(['ready'])
    })

    it('refuses headers past the server’s limit with 431 in the API’s error shape, not a hang or a 500', async () => {
      const refused = await EventStream.open(world.server, { lastEventId: '1'.repeat(20_000) })
      open.push(refused)
      await refused.waitForEnd()
      expect(refused.status).toBe(431)
      expect(refused.headers['content-type']).toMatch(/^application\/json/)
      expect(JSON.parse(refused.raw)).toMatchObject({ error: { code: 'headers_too_large' } })
    })

    // On PostgreSQL only: the test removes kept events from the database, as pruning would.
    it.runIf(target === 'postgres')('answers reset when the events after Last-Event-ID are no longer kept', async () => {
      const database = world.server.database as TestDatabase
      const level = await editor.create('R4')
      const { stream: first } = await stream(world.visitor)
      const left = await editor.barrier(first)
      first.close()
      await editor.rename(level.id, 'Pruned 1')
      await editor.rename(level.id, 'Pruned 2')
      await longLived.waitUntil(() => (eventsAfter(longLived, left).filter(levelsEvent(level.id, 'update')).length === 2 ? true : undefined))
      // The events up to `left` gone: the missed ones are all there.
      await database.query('delete from live_event where id <= $1', [left])
      const { stream: kept } = await stream(world.visitor, { lastEventId: String(left) })
      expect(summary(kept.events)).toEqual([
        ['levels', { action: 'update', id: level.id }],
        ['levels', { action: 'update', id: level.id }],
        ['ready', {}],
      ])
      // The first missed one gone: what else is missing cannot be told.
      await database.query('delete from live_event where id <= $1', [left + 1])
      const { stream: partly } = await stream(world.visitor, { lastEventId: String(left) })
      expect(partly.events.map((event) => event.event)).toEqual(['reset', 'ready'])
      // After a quiet while, pruning leaves the newest event only: a client that saw it resumes
      // without a reset; one that saw an older event is told to read again.
      await database.query('delete from live_event where id < (select max(id) from live_event)')
      const [{ newest }] = (await database.query<{ newest: string }>('select max(id) as newest from live_event')) as [{ newest: string }]
      const { stream: older } = await stream(world.visitor, { lastEventId: String(left) })
      expect(older.events.map((event) => event.event)).toEqual(['reset', 'ready'])
      const { stream: current } = await stream(world.visitor, { lastEventId: newest })
      expect(current.events).toEqual([{ id: Number(newest), event: 'ready', data: {} }])
    })
  })

  describe('the cached reads of levels', () => {
    it('answers the list with an ETag, 304 while it holds, and the new list to a client told of a change', async () => {
      const url = `${world.server.url}/api/language-levels?pageSize=100&sort=position`
      const first = await fetch(url)
      const etag = first.headers.get('etag') ?? ''
      expect(etag).toMatch(/^"[^"]+"$/)
      expect(first.headers.get('cache-control')).toBe('no-cache')
      const page = await expectJson<LevelPage>(first)

      const unchanged = await fetch(url, { headers: { 'If-None-Match': etag } })
      expect(unchanged.status).toBe(304)
      expect(await unchanged.text()).toBe('')
      expect(unchanged.headers.get('etag')).toBe(etag)
      expect(unchanged.headers.get('cache-control')).toBe('no-cache')
      // Another tag, or another read, is answered in full.
      const other = await fetch(url, { headers: { 'If-None-Match': '"something else"' } })
      expect(other.status).toBe(200)
      await other.text()
      const otherPage = await fetch(`${world.server.url}/api/language-levels?pageSize=1`)
      expect(otherPage.headers.get('etag')).not.toBe(etag)
      await otherPage.text()

      // The client reads again when its stream tells it of a change: the cache, which hears the
      // change before the streams do, answers the new list.
      const { stream: live } = await stream(world.visitor)
      const [level] = page.items
      const renamed = await editor.rename(level?.id ?? 0, 'Renamed for the ETag')
      await live.waitFor(levelsEvent(renamed.id, 'update'))
      const changed = await fetch(url, { headers: { 'If-None-Match': etag } })
      expect(changed.status).toBe(200)
      expect(changed.headers.get('etag')).not.toBe(etag)
      const after = await expectJson<LevelPage>(changed)
      expect(after.items[0]).toMatchObject({ id: renamed.id, name: 'Renamed for the ETag', version: renamed.version })
    })

    it('answers one level with an ETag, 304 while it holds, the new level to a client told of a change, and 404 once it is deleted', async () => {
      const { stream: live } = await stream(world.visitor)
      const level = await editor.create('E1')
      await live.waitFor(levelsEvent(level.id, 'create'))
      const url = `${world.server.url}/api/language-levels/${level.id}`
      const first = await fetch(url)
      const etag = first.headers.get('etag') ?? ''
      expect(etag).toMatch(/^"[^"]+"$/)
      expect(first.headers.get('cache-control')).toBe('no-cache')
      expect(await expectJson<LanguageLevel>(first)).toEqual(level)
      const unchanged = await fetch(url, { headers: { 'If-None-Match': etag } })
      expect(unchanged.status).toBe(304)
      expect(await unchanged.text()).toBe('')

      const renamed = await editor.rename(level.id, 'Renamed one')
      await live.waitFor(levelsEvent(level.id, 'update'))
      const changed = await fetch(url, { headers: { 'If-None-Match': etag } })
      expect(changed.status).toBe(200)
      expect(await expectJson<LanguageLevel>(changed)).toEqual(renamed)

      await editor.delete(level.id)
      await live.waitFor(levelsEvent(level.id, 'delete'))
      await expectApiError(await fetch(url, { headers: { 'If-None-Match': etag } }), 404, 'not_found')
    })
  })

  // Last: the stream opened first has been open long enough.
  it('writes a comment to every stream every 15 s, which keeps it open', async () => {
    const waited = Date.now() - longLivedSince
    await longLived.waitUntil(() => (longLived.comments > 0 ? true : undefined), Math.max(0, HEARTBEAT_MS - waited) + 5000, 'heartbeat')
    expect(longLived.raw).toMatch(/(^|\n\n): \n\n/)
    expect(longLived.ended).toBe(false)
    // It heard everything of this file, in order.
    expectIdsInOrder(longLived)
  }, 30_000)
})

/**
 * Streams opened and dropped by the thousand, at every moment of their life, some with hostile
 * Last-Event-IDs: nothing of them stays on the server. Measured from /proc (descriptors, sockets
 * included) and inside the server by the probe of the soak benchmark (bench/soak-probe.mjs: memory
 * after a full garbage collection): a single read of RSS moves by tens of megabytes with the
 * collector's timing, the heap after a full collection by less than one.
 */
describe.each(databaseTargets())('many live streams on %s', (target) => {
  let world: AdminWorld<ServerProcess>
  let probeDir: string
  let probeFile: string

  beforeAll(async () => {
    probeDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-live-probe-'))
    probeFile = path.join(probeDir, 'probe.jsonl')
    world = await startAdminWorld(target, 'live-many', {
      NODE_OPTIONS: `--expose-gc --import=${path.join(projectRoot, 'bench/soak-probe.mjs')}`,
      SOAK_PROBE_FILE: probeFile,
      // Thousands of streams from this one address (the cap per client: below).
      LIVE_STREAMS_PER_ADDRESS: '100000',
    }, startServer)
  })
  afterAll(async () => {
    await world?.stop()
    await rm(probeDir, { recursive: true, force: true })
  })

  it('keeps nothing of 2,000 streams opened and dropped after as many to warm up: connections, descriptors and memory back to where they were', async () => {
    const { server } = world
    const hostile = ['abc', '-1', '1e3', '9'.repeat(20), '1'.repeat(10_000), '999999999999999', '0']
    let opened = 0
    /**
     * `count` streams, 100 at a time, each dropped at another moment: before the answer, once its
     * headers arrived, or once `ready` came. Every tenth sends a hostile Last-Event-ID.
     */
    const round = async (count: number) => {
      for (let batch = 0; batch < count; batch += 100) {
        await Promise.all(
          Array.from({ length: Math.min(100, count - batch) }, async () => {
            const n = opened++
            const lastEventId = n % 10 === 0 ? hostile[(n / 10) % hostile.length] : undefined
            if (n % 3 === 0) return dropBeforeAnswer(server, lastEventId)
            const one = await EventStream.open(server, { lastEventId })
            expect(one.status).toBe(200)
            if (n % 3 === 1) await one.waitForEvent('ready', () => true, 10_000)
            one.close()
            await one.closed
          }),
        )
      }
    }
    /**
     * The server's descriptors once its connections are back to `count` or fewer (10 s at most:
     * it ends its side when the client's FIN arrives, not at the next heartbeat, 15 s away).
     */
    const settled = async (count: number) => {
      let now = await descriptors(server)
      for (let waited = 0; waited < 10_000 && now.connections > count; waited += 250) {
        await sleep(250)
        now = await descriptors(server)
      }
      return now
    }
    const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10

    const before = await descriptors(server)
    // A warm-up round of the same shape and size: code compiled, heap and database caches grown,
    // the allocator at the high-water mark of such a round (RSS stays there round after round).
    await round(2000)
    const warm = await settled(before.connections)
    const warmed = await probe(server, probeFile)
    await round(2000)
    const after = await settled(before.connections)
    const ended = await probe(server, probeFile)

    // Soft: every measure is reported, not only the first that fails.
    expect.soft(warm.connections, 'connections still open on the server 10 s after the warm-up round').toBeLessThanOrEqual(before.connections)
    expect.soft(after.connections, 'connections still open on the server 10 s after the round').toBeLessThanOrEqual(before.connections)
    // Files, pipes, timers (the embedded database's own files left out).
    expect.soft(after.other, `other descriptors: ${after.otherNames.join(', ')}`).toBeLessThanOrEqual(warm.other + 2)
    // An open stream holds about 18 KB of heap; one kept after its client left, its queue and
    // closures at least: 2,000 of them would be megabytes. Between two full collections the heap
    // moves by well under one.
    expect.soft(
      mb(ended.memory.heapUsed - warmed.memory.heapUsed),
      `heap ${mb(warmed.memory.heapUsed)} MB → ${mb(ended.memory.heapUsed)} MB; handles ${JSON.stringify(warmed.resources)} → ${JSON.stringify(ended.resources)}`,
    ).toBeLessThan(4)
    // RSS after a full collection: within a few megabytes of the warm-up's from then on. On PGlite
    // the embedded database's WebAssembly memory is in the same RSS and grows to its own
    // high-water mark (its page cache, never given back), so there the heap and the descriptors
    // above are the leak check and RSS gets the bound of a database cache, not of a stream leak.
    const rssBound = target === 'pglite' ? 128 : 30
    expect.soft(mb(ended.memory.rss - warmed.memory.rss), `RSS ${mb(warmed.memory.rss)} MB → ${mb(ended.memory.rss)} MB`).toBeLessThan(rssBound)

    // Still serving, streams included.
    expect((await fetch(`${server.url}/api/ready`)).status).toBe(200)
    const { stream: fresh } = await openReadyStream(server)
    try {
      await new LevelEditor(world.admin, 'mn').barrier(fresh)
    } finally {
      fresh.close()
    }
    // Nothing answered 500 or logged an error on the way.
    const failures = jsonLogs(server).filter((entry) => Number(entry.level) >= 50 || Number((entry.res as { status?: number } | undefined)?.status) >= 500)
    expect(failures).toEqual([])
  }, 180_000)
})

/** What bench/soak-probe.mjs writes for a server, on SIGUSR2, after a full garbage collection. */
interface Probe {
  memory: { heapUsed: number; rss: number }
  /** Active handles by type (sockets, timers, …). */
  resources: Record<string, number>
}

/** Asks the server's probe for a line and waits for it (5 s at most). */
async function probe(server: ServerProcess, file: string): Promise<Probe> {
  const lines = async () => (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean)
  const before = (await lines()).length
  server.process.kill('SIGUSR2')
  for (let waited = 0; waited < 5000; waited += 50) {
    await sleep(50)
    const now = await lines()
    if (now.length > before) return JSON.parse(now.at(-1) ?? '{}') as Probe
  }
  throw new Error('The probe wrote nothing within 5 s (is bench/soak-probe.mjs loaded?)')
}

/**
 * The open descriptors of a server: `connections`, its sockets but those to PostgreSQL (whose pool
 * grows and shrinks with the load on its own): the listener and the connections of clients,
 * whatever their state (a socket whose peer is gone may have left the kernel's table); `other`, the
 * rest but the embedded database's files (PGlite opens and closes them as it works): pipes, timers,
 * other files.
 */
async function descriptors(server: ServerProcess): Promise<{ connections: number; other: number; otherNames: string[] }> {
  const dir = `/proc/${server.process.pid}/fd`
  const names = await readdir(dir)
  const links = await Promise.all(names.map((name) => readlink(path.join(dir, name)).catch(() => '')))
  const sockets = new Set(links.flatMap((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1] ?? []))
  const hex = (value: number) => `:${value.toString(16).toUpperCase().padStart(4, '0')}`
  const databasePort = Number(new URL(process.env.TEST_DATABASE_URL ?? 'postgres://localhost:5432').port || 5432)
  let database = 0
  const tables = await Promise.all(['/proc/net/tcp', '/proc/net/tcp6'].map((file) => readFile(file, 'utf8').catch(() => '')))
  for (const line of tables.join('\n').split('\n')) {
    const fields = line.trim().split(/\s+/)
    if (sockets.has(fields[9] ?? '') && fields[1]?.endsWith(hex(server.port)) !== true && fields[2]?.endsWith(hex(databasePort))) database++
  }
  const databaseFiles = server.dataDir ? path.join(server.dataDir, 'pglite') : undefined
  // An empty link: closed between the listing and the read.
  const otherNames = links.filter((link) => link !== '' && !link.startsWith('socket:') && !(databaseFiles && link.startsWith(databaseFiles)))
  return { connections: sockets.size - database, other: otherNames.length, otherNames }
}

/** Sends a request for a stream and goes away before any answer, as fast as a socket can. */
function dropBeforeAnswer(server: ServerProcess, lastEventId: string | undefined): Promise<void> {
  return new Promise((resolve) => {
    const request = http.request(`${server.url}/api/events`, {
      agent: false,
      headers: lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId },
    })
    request.on('error', () => resolve())
    request.on('close', () => resolve())
    request.end(() => setImmediate(() => request.destroy()))
  })
}

describe('the live event stream on a server shutting down', () => {
  let server: ServerProcess
  beforeAll(async () => {
    server = await startServer({ env: { SHUTDOWN_DELAY_MS: '3000' } })
  })

  it('ends every stream on SIGTERM and refuses new ones with 503 while it drains', async () => {
    const { stream: live } = await openReadyStream(server)
    server.process.kill('SIGTERM')
    await live.waitForEnd()
    expect(live.endedByServer).toBe(true)
    // Still accepting connections for SHUTDOWN_DELAY_MS: a new stream is refused, to be tried
    // again elsewhere.
    const refused = await fetch(`${server.url}/api/events`, { headers: { Accept: 'text/event-stream' } })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    await expectApiError(refused, 503, 'service_unavailable')
    expect((await server.exited).code).toBe(0)
  })
})

describe.runIf(process.env.TEST_DATABASE_URL)('the live event stream across two instances on one PostgreSQL database', () => {
  let database: TestDatabase
  let dataDir: string
  let a: ServerProcess
  let b: ServerProcess
  let adminOnB: Client
  let editor: LevelEditor
  const adminEmail = 'admin-instances-live@example.com'
  const open: EventStream[] = []
  const stream = async (server: ServerProcess, options: OpenStreamOptions = {}) => {
    const opened = await openReadyStream(server, options)
    open.push(opened.stream)
    return opened
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-live-instances-'))
    // Many streams resume from this one address (the cap per client: below).
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, ADMIN_EMAILS: adminEmail, LIVE_STREAMS_PER_ADDRESS: '100000' }
    // Started at the same moment: migrations must not race.
    ;[a, b] = await Promise.all([startServer({ env }), startServer({ env })])
    const adminOnA = new Client(a)
    await registerAndVerify(adminOnA, dataDir, { email: adminEmail, password })
    adminOnB = new Client(b)
    for (const [name, value] of adminOnA.cookies) adminOnB.cookies.set(name, value)
    editor = new LevelEditor(adminOnA, 'ab')
  })
  afterEach(() => {
    for (const one of open.splice(0)) one.close()
  })
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await database?.drop()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('sends a change made on A to the streams on B, the audit row to B’s administrators, and B reads it once told', async () => {
    const level = await editor.create('X1')
    const url = `${b.url}/api/language-levels/${level.id}`
    const { stream: visitorOnB } = await stream(b)
    const { stream: adminStreamOnB } = await stream(b, { client: adminOnB })
    await editor.barrier(visitorOnB, adminStreamOnB)
    const etag = (await fetch(url)).headers.get('etag') ?? ''

    const renamed = await editor.rename(level.id, 'Renamed on A')
    // Through PostgreSQL's NOTIFY: a few seconds at most, even on a busy machine.
    await visitorOnB.waitFor(levelsEvent(level.id, 'update'), 5000)
    await adminStreamOnB.waitForEvent('audit', (data) => data.action === 'level.update' && data.targetId === String(level.id), 5000)
    expect(visitorOnB.named('audit')).toEqual([])
    // B's cache heard it before B's streams did.
    const changed = await fetch(url, { headers: { 'If-None-Match': etag } })
    expect(changed.status).toBe(200)
    expect(await expectJson<LanguageLevel>(changed)).toEqual(renamed)
  })

  it('resumes on B a stream left on A: the events missed, in order, then ready', async () => {
    const level = await editor.create('X2')
    const { stream: onA } = await stream(a)
    const { stream: watching } = await stream(b)
    const left = await editor.barrier(onA, watching)
    onA.close()
    await editor.rename(level.id, 'Missed 1')
    await editor.rename(level.id, 'Missed 2')
    await editor.delete(level.id)
    // B has heard them (what is under way as a stream starts: the next test).
    await watching.waitFor(levelsEvent(level.id, 'delete'))
    const { stream: onB } = await stream(b, { lastEventId: String(left) })
    expect(summary(onB.events)).toEqual([
      ['levels', { action: 'update', id: level.id }],
      ['levels', { action: 'update', id: level.id }],
      ['levels', { action: 'delete', id: level.id }],
      ['ready', {}],
    ])
    expectIdsInOrder(onB)
  })

  it('ends on B the stream of a session signed out on A', async () => {
    const onA = new Client(a)
    await registerAndVerify(onA, dataDir, { email: 'signed-out-live@example.com', password })
    const onB = new Client(b)
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value)
    const { stream: live } = await stream(b, { client: onB })
    expect((await onA.request('POST', '/api/auth/sign-out', {})).status).toBe(200)
    await live.waitForEnd()
    expect(live.endedByServer).toBe(true)
    expect(live.events.at(-1)?.event).toBe('session-ended')
  })

  // An event committed while a stream starts is read by the replay from the table, and its
  // notification may arrive after the replay: it must not be sent again. Many streams, each resuming
  // in the middle of a run of changes, make that moment likely.
  it('sends each event once, none missed, to streams resuming on B while A commits changes', async () => {
    const level = await editor.create('X4')
    const { stream: first, ready } = await stream(b)
    first.close()
    let writing = true
    const writer = (async () => {
      for (let i = 0; writing; i++) await editor.rename(level.id, `Busy ${i}`)
    })()
    const resumed: { from: number; stream: EventStream }[] = []
    try {
      let from = ready
      for (let round = 0; round < 20; round++) {
        const opened = await Promise.all(Array.from({ length: 10 }, () => EventStream.open(b, { lastEventId: String(from) })))
        for (const one of opened) resumed.push({ from, stream: one })
        await Promise.all(opened.map((one) => one.waitForEvent('ready')))
        await sleep(200)
        for (const one of opened) one.close()
        // The next ones resume a little behind what these saw: in the middle of the changes.
        const seen = opened.flatMap((one) => one.events.flatMap((event) => (event.event === 'levels' ? [event.id ?? 0] : [])))
        from = Math.max(from, ...seen) - 3
      }
    } finally {
      writing = false
      await writer
    }
    const problems: string[] = []
    for (const { from, stream: one } of resumed) {
      // Every `levels` event after `from`, up to the last this stream received, as kept; once.
      const received = one.named('levels').map((event) => event.id ?? 0)
      const rows = await database.query<{ id: string }>("select id from live_event where type = 'levels' and id > $1 and id <= $2 order by id", [from, Math.max(from, ...received)])
      const kept = rows.map((row) => Number(row.id))
      if (received.join() !== kept.join()) problems.push(`resumed from ${from}: received ${received.join()}, kept ${kept.join()}`)
    }
    expect(problems, `${problems.length} of ${resumed.length} streams`).toEqual([])
  }, 60_000)

  it('never serves on B, to a read started more than 1 s after a change committed on A, a list older than that change (6 readers, 20 changes)', async () => {
    const level = await editor.create('X3')
    const listPath = '/api/language-levels?pageSize=100&sort=position'
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })
    /** A read on B, with node:http: the tests' fetch checks each answer, too slow for a load. */
    const read = () =>
      new Promise<{ name: string | undefined; status: number }>((resolve, reject) => {
        http
          .get(`${b.url}${listPath}`, { agent }, (response) => {
            const chunks: Buffer[] = []
            response.on('data', (chunk: Buffer) => chunks.push(chunk))
            response.on('end', () => {
              const page = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LevelPage
              resolve({ name: page.items.find((item) => item.id === level.id)?.name, status: response.statusCode ?? 0 })
            })
            response.on('error', reject)
          })
          .on('error', reject)
      })

    // The level as created is change 0.
    const changes: { name: string; answeredAt: number }[] = [{ name: level.name, answeredAt: performance.now() }]
    const reads: { startedAt: number; name: string | undefined; status: number }[] = []
    let reading = true
    const reader = async () => {
      while (reading) {
        const startedAt = performance.now()
        reads.push({ startedAt, ...(await read()) })
      }
    }
    const readers = Array.from({ length: 6 }, reader)
    try {
      for (let i = 1; i <= 20; i++) {
        const name = `Change ${i}`
        await editor.rename(level.id, name)
        changes.push({ name, answeredAt: performance.now() })
        await sleep(100 + Math.random() * 100)
      }
      await sleep(1500)
    } finally {
      reading = false
      await Promise.all(readers)
      agent.destroy()
    }

    const rank = new Map(changes.map((change, index) => [change.name, index]))
    const stale = reads.flatMap((one) => {
      // The newest change answered more than 1 s before this read started: the read shows it, or
      // a later one.
      const due = changes.findLastIndex((change) => change.answeredAt < one.startedAt - 1000)
      const shown = rank.get(one.name ?? '') ?? -1
      return shown < due
        ? [`a read ${Math.round(one.startedAt - (changes[due]?.answeredAt ?? 0))} ms after "${changes[due]?.name}" was answered showed "${one.name}"`]
        : []
    })
    expect(reads.filter((one) => one.status !== 200)).toEqual([])
    // Reads enough to mean something: many in the second after each change.
    expect(reads.length).toBeGreaterThan(200)
    expect(stale).toEqual([])
    expect((await read()).name).toBe('Change 20')
  }, 60_000)
})

/**
 * Issue 29, finding 2: what a stream hears is decided by the person's role and session when the
 * event is delivered, on every instance — with Redis too, whose copy of a session holds the role
 * it had when the session was stored.
 */
describe.runIf(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL)(
  'a demotion across two instances sharing PostgreSQL and Redis',
  () => {
    let database: TestDatabase
    let dataDir: string
    let a: ServerProcess
    let b: ServerProcess
    const adminEmail = 'admin-demotion-live@example.com'
    const open: EventStream[] = []

    beforeAll(async () => {
      database = await createTestDatabase()
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-live-demotion-'))
      const env = {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        ADMIN_EMAILS: adminEmail,
        REDIS_URL: process.env.TEST_REDIS_URL ?? '',
        REDIS_KEY_PREFIX: `lingua-live-demotion-${Date.now()}:`,
        AUTH_RATE_LIMIT_SCALE: '20',
      }
      ;[a, b] = await Promise.all([startServer({ env }), startServer({ env })])
    })
    afterEach(() => {
      for (const one of open.splice(0)) one.close()
    })
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()])
      await database?.drop()
      await rm(dataDir, { recursive: true, force: true })
    })

    it('ends audit delivery on B at once when A takes the role back, and a stream opened on B after it hears none', async () => {
      const adminOnA = new Client(a)
      await registerAndVerify(adminOnA, dataDir, { email: adminEmail, password })
      const editor = new LevelEditor(adminOnA, 'dm')
      const personOnA = new Client(a)
      await registerAndVerify(personOnA, dataDir, { email: 'demoted-live@example.com', password })
      const personId = await idOf(personOnA)
      await expectJson(await adminOnA.request('PUT', `/api/admin/users/${personId}/role`, { role: 'admin' }))
      // Signed in again as an administrator: the session Redis keeps says "admin".
      const personOnB = new Client(b)
      expect((await signIn(personOnB, 'demoted-live@example.com')).status).toBe(200)
      const opened = await openReadyStream(b, { client: personOnB })
      open.push(opened.stream)
      const live = opened.stream
      const level = await editor.create('D1')
      await live.waitForEvent('audit', (data) => data.action === 'level.create' && data.targetId === String(level.id), 5000)

      await expectJson(await adminOnA.request('PUT', `/api/admin/users/${personId}/role`, { role: 'user' }))
      const revoked = await live.waitFor((event) => event.event === 'account' && dataOf(event).reason === 'access', 5000)
      await editor.rename(level.id, 'After the demotion')
      await live.waitFor(levelsEvent(level.id, 'update', revoked.id), 5000)
      expect(eventsAfter(live, revoked.id ?? 0).filter((event) => event.event === 'audit')).toEqual([])
      expect(live.named('audit').filter((event) => event.data && dataOf(event).action === 'role.revoke')).toEqual([])

      // A new stream of the same session on B, after the demotion, without Last-Event-ID.
      const again = await openReadyStream(b, { client: personOnB })
      open.push(again.stream)
      await editor.rename(level.id, 'Heard as a level change only')
      await again.stream.waitFor(levelsEvent(level.id, 'update', again.ready), 5000)
      expect(again.stream.named('audit')).toEqual([])
    })
  },
)

/**
 * Issue 29, finding 4: a client holds a bounded number of open streams — per session when signed
 * in, per address for a visitor — counted by all instances together (in Redis), refused beyond
 * with 429 in the API's error shape; a closed stream gives its place back.
 */
async function expectStreamCaps(a: ServerProcess, b: ServerProcess, dataDir: string, email: string) {
  const opened: EventStream[] = []
  const streamOn = async (server: ServerProcess, client?: Client) => {
    const { stream: one } = await openReadyStream(server, { client })
    opened.push(one)
    return one
  }
  /** Opens a stream and answers its status (once the answer ended, unless it is a stream). */
  const attempt = async (server: ServerProcess, client?: Client) => {
    const one = await EventStream.open(server, { client })
    if (one.status === 200) opened.push(one)
    else await one.waitForEnd()
    return one
  }
  const refusedOn = async (server: ServerProcess, client?: Client) => {
    const refused = await attempt(server, client)
    expect(refused.status, refused.raw).toBe(429)
    expect(refused.headers['content-type']).toMatch(/^application\/json/)
    expect(refused.headers['retry-after']).toMatch(/^\d+$/)
    const body = JSON.parse(refused.raw) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('rate_limited')
    expect(body.error.message).toMatch(/live/i)
  }
  try {
    // Visitors, by address: 3 between both instances.
    const first = await streamOn(a)
    await streamOn(a)
    await streamOn(b)
    await refusedOn(b)
    await refusedOn(a)
    // A stream that ends gives its place back (the close reaches the server a moment later).
    first.close()
    await expect.poll(async () => (await attempt(b)).status, { timeout: 5000 }).toBe(200)

    // A session: 2 between both instances, whatever the address's visitors hold.
    const person = new Client(a)
    await registerAndVerify(person, dataDir, { email, password })
    const onB = new Client(b)
    for (const [name, value] of person.cookies) onB.cookies.set(name, value)
    await streamOn(a, person)
    await streamOn(b, onB)
    await refusedOn(b, onB)
    await refusedOn(a, person)
    // Another session of the same person has its own.
    const second = new Client(b)
    expect((await signIn(second, email)).status).toBe(200)
    await streamOn(b, second)
  } finally {
    for (const one of opened) one.close()
  }
}

describe('the open live streams of one client on one instance (PGlite)', () => {
  let server: ServerProcess
  let dataDir: string
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-live-caps-'))
    server = await startServer({ env: { DATA_DIR: dataDir, LIVE_STREAMS_PER_SESSION: '2', LIVE_STREAMS_PER_ADDRESS: '3' } })
  })
  afterAll(async () => {
    await server?.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('refuses a visitor’s 4th stream and a session’s 3rd with 429, and takes one again once one closed', async () => {
    await expectStreamCaps(server, server, dataDir, 'caps-one@example.com')
  })
})

describe.runIf(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL)(
  'the open live streams of one client across two instances sharing PostgreSQL and Redis',
  () => {
    let database: TestDatabase
    let dataDir: string
    let a: ServerProcess
    let b: ServerProcess
    beforeAll(async () => {
      database = await createTestDatabase()
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-live-caps-'))
      const env = {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        REDIS_URL: process.env.TEST_REDIS_URL ?? '',
        REDIS_KEY_PREFIX: `lingua-live-caps-${Date.now()}:`,
        LIVE_STREAMS_PER_SESSION: '2',
        LIVE_STREAMS_PER_ADDRESS: '3',
      }
      ;[a, b] = await Promise.all([startServer({ env }), startServer({ env })])
    })
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()])
      await database?.drop()
      await rm(dataDir, { recursive: true, force: true })
    })

    it('counts them on both together: a visitor’s 4th and a session’s 3rd are refused on either, 429', async () => {
      await expectStreamCaps(a, b, dataDir, 'caps-two@example.com')
    })
  },
)
