import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { type Card, State, default_w, fsrs, generatorParameters } from 'ts-fsrs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ImportJob } from '@/shared/imports'
import type { MemoryModelState } from '@/shared/memory-model'
import type { PracticeCard, PracticeQueue } from '@/shared/practice'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { startAppServer } from '../helpers/app-server'
import { Client } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { historyPackage } from '../helpers/review-history'
import { type TestServer, expectApiError, expectJson } from '../helpers/server'

/*
 * A memory model of one's own (PRODUCT §13, docs/decisions/0037-memory-model.md): a learner's
 * history drawn from known FSRS parameters unlike the defaults, imported from Anki; the import queues
 * the first fit, which runs in the background (once, with two instances on one PostgreSQL) and
 * predicts that history better than the defaults; the queue then schedules with the fitted
 * parameters; the desired retention changes the intervals and what it costs a day. Below 400
 * reviews there is nothing to personalise.
 */

/** After the last review of `historyPackage` (2026-02-26): the app's clock (the tests move it on). */
let clock = new Date('2026-03-01T09:00:00Z')
const later = (ms: number) => {
  clock = new Date(clock.getTime() + ms)
}

async function imported(client: Client, bytes: Buffer): Promise<ImportJob> {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)]), 'history.apkg')
  const response = await client.request('POST', '/api/me/imports', undefined, { body: form, headers: { Origin: client.origin, Cookie: client.cookieHeader() } })
  const { id } = await expectJson<{ id: string }>(response, 202)
  for (let i = 0; i < 300; i++) {
    const job = await expectJson<ImportJob>(await client.request('GET', `/api/me/imports/${id}`))
    if (job.status === 'done' || job.status === 'failed') return job
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`import ${id} did not end`)
}

const modelOf = async (client: Client) => expectJson<MemoryModelState>(await client.request('GET', '/api/me/practice/memory-model'))

/** The model once no fit is queued or running. */
async function settled(client: Client): Promise<MemoryModelState> {
  for (let i = 0; i < 300; i++) {
    const state = await modelOf(client)
    if (state.status !== 'queued' && state.status !== 'running') return state
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the fit did not end')
}

const queueOf = async (client: Client) => expectJson<PracticeQueue>(await client.request('GET', '/api/me/practice/queue?limit=50'))
const goodSeconds = (card: PracticeCard) => card.next.find((next) => next.grade === 3)?.seconds ?? 0

interface Exported {
  practice: {
    settings: { fsrsParameters: { w: number[] }; desiredRetention: number } | null
    cards: { wordId: number; state: string; due: string; stability: number; difficulty: number; reps: number; lapses: number; lastReview: string | null }[]
  }
}

describe.each(databaseTargets())('the memory model on %s', (target) => {
  let world: AdminWorld
  let folder: string
  let history: { bytes: Buffer; reviews: number }

  beforeAll(async () => {
    world = await startAdminWorld(target, 'memory-model', {}, (options) => startAppServer({ ...options, now: () => clock }))
    folder = await mkdtemp(path.join(os.tmpdir(), 'lingua-memory-model-test-'))
    history = await packageOf(150)
  })
  afterAll(async () => {
    await world.stop()
    await rm(folder, { recursive: true, force: true })
  })

  const packageOf = async (cards: number) => {
    const made = await historyPackage(folder, cards, clock)
    return { bytes: await readFile(made.file), reviews: made.reviews }
  }

  async function learner(name: string, server: TestServer = world.server): Promise<Client> {
    const client = await world.signUp(`${name}-${target}@example.com`)
    expect((await client.request('PUT', '/api/me/practice/settings', { newWordsPerDay: 10, dailyGoal: 20, timeZone: 'UTC' })).status).toBe(200)
    return server === world.server ? client : on(server, client)
  }

  /** The same account (its cookies) on another instance. */
  const on = (server: TestServer, client: Client) => {
    const moved = new Client(server)
    for (const [name, value] of client.cookies) moved.cookies.set(name, value)
    return moved
  }

  it('is for signed-in people only', async () => {
    await expectApiError(await world.visitor.request('GET', '/api/me/practice/memory-model'), 401, 'unauthenticated')
    await expectApiError(await world.visitor.request('POST', '/api/me/practice/memory-model'), 401, 'unauthenticated')
  })

  it('starts with the default model, costs nothing a day, and refuses to personalise below 400 reviews', async () => {
    const client = await learner('few')
    const empty = await modelOf(client)
    expect(empty).toEqual({
      status: 'default',
      reviews: 0,
      minReviews: 400,
      model: null,
      desiredRetention: 0.9,
      estimates: [0.8, 0.85, 0.9, 0.95, 0.97].map((retention) => ({ retention, reviewsPerDay: 0 })),
    })
    const few = await packageOf(40)
    expect(few.reviews).toBeLessThan(400)
    expect(await imported(client, few.bytes)).toMatchObject({ status: 'done', reviews: few.reviews })
    const refused = await expectApiError(await client.request('POST', '/api/me/practice/memory-model'), 409, 'conflict')
    expect(refused.message).toContain(`at least 400 reviews: you have ${few.reviews}`)
    const state = await modelOf(client)
    expect(state).toMatchObject({ status: 'default', reviews: few.reviews, model: null })
    expect(state.estimates.every((estimate) => estimate.reviewsPerDay > 0)).toBe(true)
  })

  it('is fitted in the background once an import brings 400 reviews: it predicts them better, and the queue schedules with it', async () => {
    const client = await learner('imported')
    expect(history.reviews).toBeGreaterThanOrEqual(400)
    const before = await modelOf(client)
    expect(await imported(client, history.bytes)).toMatchObject({ status: 'done', reviews: history.reviews })
    // Queued by the import's end, run by the worker.
    const fitted = await settled(client)
    expect(fitted.status, `${JSON.stringify(fitted)}\n${world.server.logs.filter((line) => line.includes('job')).join('\n')}`).toBe('personalised')
    expect(fitted.reviews).toBe(history.reviews)
    expect(fitted.model?.reviews).toBe(history.reviews)
    expect(fitted.model?.logLossAfter).toBeLessThan(fitted.model?.logLossBefore ?? 0)
    expect(fitted.model?.fittedAt).toBe(clock.toISOString())
    expect(before.status).toBe('default')

    // The queue's next intervals are ts-fsrs's with the fitted parameters, not the defaults.
    const copy = await expectJson<Exported>(await client.request('GET', '/api/me/export'))
    const weights = copy.practice.settings?.fsrsParameters.w ?? []
    expect(weights).toHaveLength(21)
    expect(weights).not.toEqual([...default_w])
    const queue = await queueOf(client)
    const due = queue.cards.filter((card) => card.kind === 'due' && card.schedule.state === 'review')
    expect(due.length).toBeGreaterThan(0)
    const preview = (card: PracticeCard, w: number[]) => {
      const stored = copy.practice.cards.find((each) => each.wordId === card.wordId)
      if (!stored?.lastReview) throw new Error('no card')
      const tsCard: Card = {
        due: new Date(stored.due),
        stability: stored.stability,
        difficulty: stored.difficulty,
        elapsed_days: 0,
        scheduled_days: 0,
        learning_steps: 0,
        reps: stored.reps,
        lapses: stored.lapses,
        state: State.Review,
        last_review: new Date(stored.lastReview),
      }
      const scheduler = fsrs(generatorParameters({ w, request_retention: 0.9, enable_fuzz: false }))
      const outcome = scheduler.repeat(tsCard, clock)
      return ([1, 2, 3, 4] as const).map((grade) => outcome[grade].card.due.toISOString())
    }
    let differs = false
    for (const card of due) {
      expect(card.next.map((next) => next.due)).toEqual(preview(card, weights))
      differs ||= JSON.stringify(preview(card, [...default_w])) !== JSON.stringify(preview(card, weights))
    }
    expect(differs).toBe(true)

    // A lower desired retention: longer intervals, fewer reviews a day; a higher one costs more.
    const cost = (state: MemoryModelState, retention: number) => state.estimates.find((estimate) => estimate.retention === retention)?.reviewsPerDay ?? -1
    expect(cost(fitted, 0.8)).toBeGreaterThan(0)
    expect(cost(fitted, 0.8)).toBeLessThan(cost(fitted, 0.9))
    expect(cost(fitted, 0.9)).toBeLessThan(cost(fitted, 0.97))
    const settings = { newWordsPerDay: 10, dailyGoal: 20, timeZone: 'UTC' }
    expect((await client.request('PUT', '/api/me/practice/settings', { ...settings, desiredRetention: 0.83 })).status).toBe(200)
    const lower = await queueOf(client)
    for (const card of due) {
      const after = lower.cards.find((each) => each.wordId === card.wordId)
      expect(goodSeconds(after as PracticeCard)).toBeGreaterThanOrEqual(goodSeconds(card))
    }
    expect(lower.cards.some((card) => goodSeconds(card) > goodSeconds(due.find((each) => each.wordId === card.wordId) ?? card))).toBe(true)
    const at83 = await modelOf(client)
    expect(at83.desiredRetention).toBe(0.83)
    expect(at83.estimates.map((estimate) => estimate.retention)).toEqual([0.8, 0.83, 0.85, 0.9, 0.95, 0.97])
    expect(cost(at83, 0.83)).toBeGreaterThan(cost(at83, 0.8))
    expect(cost(at83, 0.83)).toBeLessThan(cost(at83, 0.85))
    expect(cost(at83, 0.9)).toBe(cost(fitted, 0.9))
  })

  it('"Personalise now" queues a fit that the worker runs, again only with reviews since the last', { timeout: 60_000 }, async () => {
    const client = await learner('now')
    await imported(client, history.bytes)
    const first = await settled(client)
    expect(first.status, world.server.logs.filter((line) => line.includes('job')).join('\n')).toBe('personalised')
    // Nothing new since: the fit is not done again.
    const queued = await expectJson<MemoryModelState>(await client.request('POST', '/api/me/practice/memory-model'), 202)
    expect(['queued', 'running', 'personalised']).toContain(queued.status)
    expect((await settled(client)).model).toEqual(first.model)
    // A review since: fitted again.
    later(60_000)
    const [card] = (await queueOf(client)).cards as [PracticeCard]
    const grade = { clientId: randomUUID(), wordId: card.wordId, grade: 3, version: card.schedule.version }
    expect((await client.request('POST', '/api/me/practice/reviews', grade)).status).toBe(201)
    await expectJson<MemoryModelState>(await client.request('POST', '/api/me/practice/memory-model'), 202)
    const again = await settled(client)
    expect(again.status).toBe('personalised')
    expect(again.model?.reviews).toBe(history.reviews + 1)
  })

  describe.runIf(target === 'postgres')('with two instances on one database', () => {
    let second: TestServer
    beforeAll(async () => {
      const url = world.server.database?.url as string
      second = await startAppServer({ env: { DATABASE_URL: url, DATA_DIR: world.dataDir }, now: () => clock })
    })
    afterAll(async () => {
      await second.stop()
    })

    const modelEvents = async (userId: string) =>
      (
        await (world.server.database?.query<{ n: string }>(
          `select count(*) as n from live_event where type = 'practice' and user_id = $1 and data->>'reason' = 'model'`,
          [userId],
        ) ?? [])
      )[0]?.n

    const userIdOf = async (email: string) =>
      (await world.server.database?.query<{ id: string }>('select id from "user" where email = $1', [email]))?.[0]?.id as string

    it('fits once: one instance claims the job, the other sees it done', { timeout: 60_000 }, async () => {
      const client = await learner('two')
      const elsewhere = on(second, client)
      await imported(client, history.bytes)
      const fitted = await settled(elsewhere)
      expect(fitted.status).toBe('personalised')
      const userId = await userIdOf(`two-${target}@example.com`)
      expect(await modelEvents(userId)).toBe('1')
      const [job] = (await world.server.database?.query<{ attempts: number; locked_by: string | null; later: boolean }>(
        `select attempts, locked_by, run_after > now() + interval '6 days' as later from learner_job where user_id = $1 and kind = 'fit'`,
        [userId],
      )) ?? []
      // Given back, due again in a week.
      expect(job).toEqual({ attempts: 0, locked_by: null, later: true })
    })

    it('takes over a fit whose instance died, and puts off one claimed too often', { timeout: 60_000 }, async () => {
      const client = await learner('taken-over')
      const userId = await userIdOf(`taken-over-${target}@example.com`)
      await imported(client, history.bytes)
      await settled(client)
      const db = world.server.database
      // A fit held by an instance that is gone (its lease ran out), with a review since the last fit.
      const [card] = (await queueOf(client)).cards as [PracticeCard]
      later(60_000)
      expect((await client.request('POST', '/api/me/practice/reviews', { clientId: randomUUID(), wordId: card.wordId, grade: 3, version: card.schedule.version })).status).toBe(201)
      await db?.query(`update learner_job set run_after = now(), locked_by = 'gone', locked_until = now() - interval '1 second', attempts = 1 where user_id = $1`, [userId])
      for (let i = 0; i < 100 && (await modelOf(client)).model?.reviews !== history.reviews + 1; i++) await new Promise((resolve) => setTimeout(resolve, 100))
      expect((await settled(client)).model?.reviews).toBe(history.reviews + 1)
      // Claimed three times already: not run a fourth, put off a week.
      later(60_000)
      expect((await client.request('POST', '/api/me/practice/reviews', { clientId: randomUUID(), wordId: card.wordId, grade: 3, version: card.schedule.version + 1 })).status).toBe(201)
      await db?.query(`update learner_job set run_after = now(), locked_by = 'gone', locked_until = now() - interval '1 second', attempts = 3 where user_id = $1`, [userId])
      for (let i = 0; i < 100; i++) {
        const [row] = (await db?.query<{ later: boolean }>(`select run_after > now() + interval '6 days' as later from learner_job where user_id = $1`, [userId])) ?? []
        if (row?.later) break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const state = await modelOf(client)
      expect(state.status).toBe('personalised')
      expect(state.model?.reviews).toBe(history.reviews + 1)
    })
  })
})
