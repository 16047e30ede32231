import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ImportJob } from '@/shared/imports'
import type { LanguageLevel } from '@/shared/levels'
import type { GradeResult, PracticeCard, PracticeQueue } from '@/shared/practice'
import { addDays, dayIn } from '@/shared/practice-days'
import type { Progress } from '@/shared/progress'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { stock, writeAnkiPackage } from '../helpers/anki-package'
import { startAppServer } from '../helpers/app-server'
import type { Client } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { allLevels } from '../helpers/levels'
import { expectApiError, expectJson } from '../helpers/server'

/*
 * `GET /api/me/progress` (docs/product.md §13, docs/decisions/0034-progress.md): reviews a day
 * (undone grades left out), true retention, the forecast and the cards by state, in the learner's
 * time zone, with the app's clock moved by the test.
 */

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

describe.each(databaseTargets())('progress on %s', (target) => {
  let world: AdminWorld
  let levels: Record<string, LanguageLevel>
  let folder: string
  /** The app's clock: the tests move it. */
  let clock = new Date('2026-05-10T09:00:00Z')
  const later = (ms: number) => {
    clock = new Date(clock.getTime() + ms)
  }

  beforeAll(async () => {
    world = await startAdminWorld(target, 'progress', {}, (options) => startAppServer({ ...options, now: () => clock }))
    levels = Object.fromEntries((await allLevels(world.visitor)).map((level) => [level.code, level]))
    folder = await mkdtemp(path.join(os.tmpdir(), 'lingua-progress-test-'))
  })
  afterAll(async () => {
    await world.stop()
    await rm(folder, { recursive: true, force: true })
  })

  async function learner(name: string, timeZone = 'UTC', level: string | null = 'A1'): Promise<Client> {
    const client = await world.signUp(`${name}-${target}@example.com`)
    const profile = { language: 'en', currentLevelId: level ? (levels[level]?.id ?? null) : null, targetLevelId: null }
    expect((await client.request('PUT', '/api/me/profile', profile)).status).toBe(200)
    const settings = { newWordsPerDay: 10, dailyGoal: 20, timeZone }
    expect((await client.request('PUT', '/api/me/practice/settings', settings)).status).toBe(200)
    return client
  }
  const progress = async (client: Client) => expectJson<Progress>(await client.request('GET', '/api/me/progress'))
  const queue = async (client: Client) => expectJson<PracticeQueue>(await client.request('GET', '/api/me/practice/queue?limit=20'))
  const grade = async (client: Client, card: PracticeCard, value: 1 | 2 | 3 | 4, clientId = randomUUID()) =>
    expectJson<GradeResult>(
      await client.request('POST', '/api/me/practice/reviews', { clientId, wordId: card.wordId, grade: value, version: card.schedule.version }),
      201,
    )
  /** The count of each date that has one. */
  const counted = (days: Progress['reviews']) => Object.fromEntries(days.filter((day) => day.count > 0).map((day) => [day.date, day.count]))

  it('is for signed-in people only', async () => {
    await expectApiError(await world.visitor.request('GET', '/api/me/progress'), 401, 'unauthenticated')
  })

  it('starts empty: 90 days of no reviews, no retention yet, nothing due, the level’s words new', async () => {
    const client = await learner('empty')
    const empty = await progress(client)
    expect(empty.day).toBe('2026-05-10')
    expect(empty.timeZone).toBe('UTC')
    expect(empty.reviews).toHaveLength(90)
    expect(empty.reviews[0]).toEqual({ date: '2026-02-10', count: 0 })
    expect(empty.reviews.at(-1)).toEqual({ date: '2026-05-10', count: 0 })
    expect(empty.reviews.every((day) => day.count === 0)).toBe(true)
    expect(empty.retention).toEqual({ reviews: 0, passed: 0, rate: null })
    expect(empty.forecast).toHaveLength(30)
    expect(empty.forecast[0]).toEqual({ date: '2026-05-10', count: 0 })
    expect(empty.forecast.at(-1)).toEqual({ date: '2026-06-08', count: 0 })
    expect(empty.forecast.every((day) => day.count === 0)).toBe(true)
    // The starter set's A1 words, none started.
    expect(empty.states).toEqual({ new: 97, learning: 0, review: 0, relearning: 0, suspended: 0 })
    // No level: no course word is the learner's to start.
    expect((await progress(await learner('no-level', 'UTC', null))).states.new).toBe(0)
  })

  it('counts the grades of each day but undone ones, true retention of cards in review, the forecast and the states', async () => {
    const client = await learner('figures')
    const [easy, lapse, good, again, undone] = (await queue(client)).cards as [PracticeCard, PracticeCard, PracticeCard, PracticeCard, PracticeCard]
    const first = await grade(client, easy, 4)
    await grade(client, lapse, 4)
    await grade(client, good, 3)
    await grade(client, again, 1)
    const undoneId = randomUUID()
    await grade(client, undone, 3, undoneId)
    expect((await client.request('POST', '/api/me/practice/undo', { clientId: undoneId })).status).toBe(200)

    const day0 = await progress(client)
    expect(counted(day0.reviews)).toEqual({ '2026-05-10': 4 })
    // Only new cards were graded: no review of a card in review state yet.
    expect(day0.retention).toEqual({ reviews: 0, passed: 0, rate: null })
    expect(day0.states).toEqual({ new: 97 - 4, learning: 2, review: 2, relearning: 0, suspended: 0 })
    // The two in learning are due today; the two graded Easy on the day their schedule says.
    expect(first.schedule.state).toBe('review')
    const easyDate = dayIn('UTC', new Date(first.schedule.due))
    const easyIndex = day0.forecast.findIndex((day) => day.date === easyDate)
    expect(easyIndex).toBeGreaterThan(0)
    expect(counted(day0.forecast)).toEqual({ '2026-05-10': 2, [easyDate]: 2 })

    // The day they are due, the learning cards still waiting (overdue: counted on today).
    clock = new Date(new Date(first.schedule.due).getTime() + 60 * MINUTE)
    const dueDay = dayIn('UTC', clock)
    const due = (await queue(client)).cards
    const byWord = (card: PracticeCard) => due.find((each) => each.wordId === card.wordId) as PracticeCard
    expect(due.map((card) => card.kind).slice(0, 4)).toEqual(['due', 'due', 'due', 'due'])
    const kept = await grade(client, byWord(easy), 3)
    const lapsed = await grade(client, byWord(lapse), 1)
    expect(lapsed.schedule.state).toBe('relearning')

    const dayN = await progress(client)
    expect(dayN.day).toBe(dueDay)
    expect(counted(dayN.reviews)).toEqual({ '2026-05-10': 4, [dueDay]: 2 })
    expect(dayN.retention).toEqual({ reviews: 2, passed: 1, rate: 0.5 })
    expect(dayN.states).toEqual({ new: 97 - 4, learning: 2, review: 1, relearning: 1, suspended: 0 })
    // Today: the two learning cards (overdue) and the relearning one; the kept card when it comes due.
    const keptDate = dayIn('UTC', new Date(kept.schedule.due))
    const expected: Record<string, number> = { [dueDay]: 3 }
    if (keptDate <= addDays(dueDay, 29)) expected[keptDate] = 1
    expect(counted(dayN.forecast)).toEqual(expected)
    expect(dayN.forecast[0]?.date).toBe(dueDay)

    // 31 days on, the reviews are past the retention's 30 days, still in the chart's 90.
    later(31 * DAY)
    const month = await progress(client)
    expect(month.retention).toEqual({ reviews: 0, passed: 0, rate: null })
    expect(counted(month.reviews)).toEqual({ '2026-05-10': 4, [dueDay]: 2 })
    // And 90 days after the first day, it is no longer shown.
    clock = new Date(Date.UTC(2026, 4, 10, 9) + 90 * DAY)
    expect(counted((await progress(client)).reviews)).toEqual({ [dueDay]: 2 })
    clock = new Date('2026-05-10T09:00:00Z')
  })

  it('counts days in the learner’s time zone', async () => {
    // 20:00 UTC on 10 May is 05:00 on 11 May in Tokyo.
    clock = new Date('2026-05-10T20:00:00Z')
    const client = await learner('tokyo', 'Asia/Tokyo')
    const [card] = (await queue(client)).cards as [PracticeCard]
    await grade(client, card, 3)
    const tokyo = await progress(client)
    expect(tokyo.day).toBe('2026-05-11')
    expect(tokyo.timeZone).toBe('Asia/Tokyo')
    expect(counted(tokyo.reviews)).toEqual({ '2026-05-11': 1 })
    expect(tokyo.forecast[0]).toEqual({ date: '2026-05-11', count: 1 })
    expect(tokyo.forecast[1]?.date).toBe('2026-05-12')
    clock = new Date('2026-05-10T09:00:00Z')
  })

  it('counts a deck’s new cards as new and a suspended card as suspended only, and nobody else’s', async () => {
    const client = await learner('collection', 'UTC', null)
    const file = path.join(folder, 'deck.apkg')
    await writeAnkiPackage(file, {
      format: 'anki21b',
      created: Date.UTC(2026, 0, 1) / 1000,
      decks: [
        { id: 1, name: 'Default' },
        { id: 100, name: 'Spanish' },
      ],
      noteTypes: [stock.basic],
      notes: [
        { id: 1, guid: 'g-uno', noteTypeId: stock.basic.id, fields: ['uno', 'one'] },
        { id: 2, guid: 'g-dos', noteTypeId: stock.basic.id, fields: ['dos', 'two'] },
        { id: 3, guid: 'g-tres', noteTypeId: stock.basic.id, fields: ['tres', 'three'] },
      ],
      cards: [
        { id: 10, noteId: 1, deckId: 100, type: 0, queue: 0, due: 1 },
        { id: 20, noteId: 2, deckId: 100, type: 0, queue: 0, due: 2 },
        // New and suspended in Anki.
        { id: 30, noteId: 3, deckId: 100, type: 0, queue: -1, due: 3 },
      ],
    })
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(await readFile(file))]), 'deck.apkg')
    const started = await client.request('POST', '/api/me/imports', undefined, {
      body: form,
      headers: { Origin: client.origin, Cookie: client.cookieHeader() },
    })
    const { id } = await expectJson<{ id: string }>(started, 202)
    let job: ImportJob | undefined
    for (let i = 0; i < 300 && job?.status !== 'done' && job?.status !== 'failed'; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100))
      job = await expectJson<ImportJob>(await client.request('GET', `/api/me/imports/${id}`))
    }
    expect(job?.status).toBe('done')
    const { states, forecast } = await progress(client)
    expect(states).toEqual({ new: 2, learning: 0, review: 0, relearning: 0, suspended: 1 })
    expect(forecast.every((day) => day.count === 0)).toBe(true)
    // Another learner's figures are their own.
    expect((await progress(world.learner)).states).toEqual({ new: 0, learning: 0, review: 0, relearning: 0, suspended: 0 })
  })
})
