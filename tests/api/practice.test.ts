import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LanguageLevel } from '@/shared/levels'
import type { GradeResult, PracticeCard, PracticeQueue, PracticeSettings, PracticeToday, UndoResult } from '@/shared/practice'
import type { PracticeSettingsInput } from '@/shared/practice-schemas'
import { type AdminWorld, password, startAdminWorld } from '../helpers/accounts'
import { startAppServer } from '../helpers/app-server'
import type { Client } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { openReadyStream } from '../helpers/event-stream'
import { allLevels } from '../helpers/levels'
import { expectApiError, expectJson } from '../helpers/server'

/*
 * Practice over HTTP: the queue, grades (idempotent by the client's id, one review per card
 * state), undo, today's summary and the streak across days, with the app's clock moved by the
 * test (the clock seam of startAppServer), on PGlite and PostgreSQL.
 */

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

describe.each(databaseTargets())('practice on %s', (target) => {
  let world: AdminWorld
  let levels: Record<string, LanguageLevel>
  /** The app's clock: the tests move it. */
  let clock = new Date('2026-05-10T09:00:00Z')
  const later = (ms: number) => {
    clock = new Date(clock.getTime() + ms)
  }

  beforeAll(async () => {
    world = await startAdminWorld(target, 'practice', {}, (options) => startAppServer({ ...options, now: () => clock }))
    levels = Object.fromEntries((await allLevels(world.visitor)).map((level) => [level.code, level]))
  })
  afterAll(async () => {
    await world.stop()
  })

  /** A new learner of English at `level`, with their practice settings saved. */
  async function learner(name: string, level = 'A1', settings: Partial<PracticeSettingsInput> = {}): Promise<Client> {
    const client = await world.signUp(`${name}-${target}@example.com`)
    const profile = { language: 'en', currentLevelId: levels[level]?.id ?? null, targetLevelId: null }
    expect((await client.request('PUT', '/api/me/profile', profile)).status).toBe(200)
    await saveSettings(client, { newWordsPerDay: 10, dailyGoal: 20, timeZone: 'UTC', ...settings })
    return client
  }
  const saveSettings = async (client: Client, settings: PracticeSettingsInput) =>
    expectJson<PracticeSettings>(await client.request('PUT', '/api/me/practice/settings', settings))
  const queue = async (client: Client, limit?: number) =>
    expectJson<PracticeQueue>(await client.request('GET', `/api/me/practice/queue${limit ? `?limit=${limit}` : ''}`))
  const today = async (client: Client) => expectJson<PracticeToday>(await client.request('GET', '/api/me/practice/today'))
  const grade = (client: Client, card: PracticeCard, value: 1 | 2 | 3 | 4, extra: { clientId?: string; reviewedAt?: string } = {}) =>
    client.request('POST', '/api/me/practice/reviews', {
      clientId: extra.clientId ?? randomUUID(),
      wordId: card.wordId,
      grade: value,
      version: card.schedule.version,
      ...(extra.reviewedAt ? { reviewedAt: extra.reviewedAt } : {}),
    })
  /** Grades the first `n` cards of the queue "Good". */
  async function practise(client: Client, n: number): Promise<void> {
    const { cards } = await queue(client, n)
    expect(cards.length).toBeGreaterThanOrEqual(n)
    for (const card of cards.slice(0, n)) await expectJson<GradeResult>(await grade(client, card, 3), 201)
  }

  it('is for signed-in people only', async () => {
    const { visitor } = world
    for (const [method, path, body] of [
      ['GET', '/api/me/practice/queue'],
      ['GET', '/api/me/practice/today'],
      ['GET', '/api/me/practice/settings'],
      ['PUT', '/api/me/practice/settings', { newWordsPerDay: 1, dailyGoal: 1, timeZone: 'UTC' }],
      ['POST', '/api/me/practice/reviews', { clientId: randomUUID(), wordId: 1, grade: 3, version: 0 }],
      ['POST', '/api/me/practice/undo', { clientId: randomUUID() }],
    ] as const) {
      await expectApiError(await visitor.request(method, path, body), 401, 'unauthenticated')
    }
  })

  it('keeps settings with defaults, and refuses bad ones field by field', async () => {
    const defaults = { ways: ['flashcard', 'type', 'choose', 'listen', 'gap'], reminderEnabled: false, reminderHour: 18, desiredRetention: 0.9 }
    const client = await world.signUp(`settings-${target}@example.com`)
    expect(await expectJson(await client.request('GET', '/api/me/practice/settings'))).toEqual({ newWordsPerDay: 10, dailyGoal: 20, timeZone: 'UTC', ...defaults })
    const refused = await expectApiError(
      await client.request('PUT', '/api/me/practice/settings', { newWordsPerDay: 101, dailyGoal: 0, timeZone: 'Mars/Olympus_Mons' }),
      400,
      'validation_failed',
    )
    expect(Object.keys(refused.fields ?? {}).sort()).toEqual(['dailyGoal', 'newWordsPerDay', 'timeZone'])
    const saved = await saveSettings(client, { newWordsPerDay: 5, dailyGoal: 30, timeZone: 'Europe/Berlin' })
    expect(saved).toEqual({ newWordsPerDay: 5, dailyGoal: 30, timeZone: 'Europe/Berlin', ...defaults })
    expect(await expectJson(await client.request('GET', '/api/me/practice/settings'))).toEqual(saved)
  })

  it('saves the ways to practise, the reminder and the desired retention; those left out keep their values', async () => {
    const client = await world.signUp(`settings-more-${target}@example.com`)
    const base = { newWordsPerDay: 10, dailyGoal: 20, timeZone: 'UTC' }
    const refused = await expectApiError(
      await client.request('PUT', '/api/me/practice/settings', { ...base, ways: [], reminderHour: 24, desiredRetention: 0.5, reminderEnabled: 'yes' }),
      400,
      'validation_failed',
    )
    expect(Object.keys(refused.fields ?? {}).sort()).toEqual(['desiredRetention', 'reminderEnabled', 'reminderHour', 'ways'])
    for (const ways of [['flashcard', 'flashcard'], ['juggle'], [' type']]) {
      await expectApiError(await client.request('PUT', '/api/me/practice/settings', { ...base, ways }), 400, 'validation_failed')
    }
    await expectApiError(await client.request('PUT', '/api/me/practice/settings', { ...base, desiredRetention: 0.98 }), 400, 'validation_failed')
    // Stored in the order the account page lists them, whatever the order sent.
    const saved = await saveSettings(client, { ...base, ways: ['gap', 'type'], reminderEnabled: true, reminderHour: 7, desiredRetention: 0.85 })
    expect(saved).toMatchObject({ ways: ['type', 'gap'], reminderEnabled: true, reminderHour: 7, desiredRetention: 0.85 })
    const kept = await saveSettings(client, { ...base, dailyGoal: 40 })
    expect(kept).toEqual({ ...saved, dailyGoal: 40 })
    expect(await saveSettings(client, { ...base, reminderHour: 0, desiredRetention: 0.97 })).toMatchObject({ reminderHour: 0, desiredRetention: 0.97, reminderEnabled: true })
  })

  it('keeps a time zone by its canonical name, however it was spelt', async () => {
    const client = await world.signUp(`zone-case-${target}@example.com`)
    const saved = await saveSettings(client, { newWordsPerDay: 10, dailyGoal: 20, timeZone: 'eUROPE/bERLIN' })
    expect(saved.timeZone).toBe('Europe/Berlin')
    // One of the 2^28 spellings of one zone an outside probe sent: all are one name.
    const probe = await saveSettings(client, { newWordsPerDay: 10, dailyGoal: 20, timeZone: 'aMerIca/ARGEntinA/comodRivadavia' })
    expect(probe.timeZone).toBe(new Intl.DateTimeFormat('en', { timeZone: 'America/Argentina/ComodRivadavia' }).resolvedOptions().timeZone)
    expect(await expectJson(await client.request('GET', '/api/me/practice/settings'))).toEqual(probe)
    expect((await today(client)).timeZone).toBe(probe.timeZone)
  })

  it('queues the new words of the current level, at most the daily number, with each grade’s next interval', async () => {
    const client = await learner('queue')
    const first = await queue(client)
    expect(first).toMatchObject({ dueNow: 0, newLeft: 10 })
    expect(first.cards).toHaveLength(10)
    expect(first.cards.map((card) => card.text).slice(0, 3)).toEqual(['hello', 'goodbye', 'please'])
    const [hello] = first.cards as [PracticeCard]
    expect(hello).toMatchObject({ kind: 'new', language: 'en', translationRu: 'привет', partOfSpeech: 'interjection', schedule: { state: 'new', version: 0 } })
    expect(hello.next.map((next) => `${next.grade}: ${next.label.value} ${next.label.unit}`).slice(0, 3)).toEqual(['1: 1 minute', '2: 6 minute', '3: 10 minute'])
    expect(hello.next[3]?.label.unit).toBe('day')
    expect((await queue(client, 3)).cards).toHaveLength(3)

    // Another level, another set; no level, no new words.
    const a2 = await learner('queue-a2', 'A2')
    expect((await queue(a2)).cards[0]?.text).toBe('weather')
    const none = await world.signUp(`queue-none-${target}@example.com`)
    expect(await queue(none)).toMatchObject({ cards: [], newLeft: 0 })
  })

  it('says why new words come or not: available, the daily number reached, no level, none at it in the language learnt, all started', async () => {
    const status = async (client: Client) => {
      const [fromQueue, fromToday] = [(await queue(client)).newWords, (await today(client)).newWords]
      expect(fromToday).toEqual(fromQueue)
      return fromQueue
    }
    expect(await status(await learner('why-available'))).toEqual({ status: 'available', levelCode: 'A1', language: 'en' })
    expect(await status(await learner('why-limit', 'A1', { newWordsPerDay: 0 }))).toEqual({
      status: 'dailyLimitReached',
      levelCode: 'A1',
      language: 'en',
    })
    expect(await status(await world.signUp(`why-none-${target}@example.com`))).toEqual({ status: 'noLevel', levelCode: null, language: null })

    // French at A1: the starter words are English.
    const french = await learner('why-french')
    expect((await french.request('PUT', '/api/me/profile', { language: 'fr', currentLevelId: levels.A1?.id, targetLevelId: null })).status).toBe(200)
    expect(await status(french)).toEqual({ status: 'noWords', levelCode: 'A1', language: 'fr' })
    expect(await queue(french)).toMatchObject({ cards: [], newLeft: 0 })

    // A level of one word: once it is started, the level is learnt (and its review still comes).
    const code = 'W1'
    const small = await expectJson<LanguageLevel>(await world.admin.request('POST', '/api/language-levels', { code, name: 'One word' }), 201)
    const only = { language: 'en', text: 'lantern', translationEn: 'a lamp in a case', translationRu: 'фонарь', example: null, partOfSpeech: 'noun' }
    await expectJson(await world.admin.request('POST', `/api/language-levels/${small.id}/words`, only), 201)
    levels[code] = small
    const learnt = await learner('why-learnt', code)
    await practise(learnt, 1)
    expect(await status(learnt)).toEqual({ status: 'levelLearned', levelCode: code, language: 'en' })
    expect((await world.admin.request('DELETE', `/api/language-levels/${small.id}`)).status).toBe(204)
  })

  it('shows due cards first, oldest first, then the new words left for today', async () => {
    const client = await learner('due', 'A1', { newWordsPerDay: 4 })
    const [a, b] = (await queue(client)).cards as [PracticeCard, PracticeCard]
    const again = await expectJson<GradeResult>(await grade(client, a, 1), 201) // Again: due in 1 minute
    await expectJson(await grade(client, b, 3), 201) // Good: due in 10 minutes
    let now = await queue(client)
    // Neither is due yet, both come back later today (the first in a minute); two new words are left of the four.
    expect(now).toMatchObject({ dueNow: 0, newLeft: 2, laterToday: { count: 2, next: again.schedule.due } })
    expect(Date.parse(again.schedule.due) - clock.getTime()).toBe(MINUTE)
    expect(now.cards.map((card) => card.kind)).toEqual(['new', 'new'])
    later(11 * MINUTE)
    now = await queue(client)
    expect(now.dueNow).toBe(2)
    expect(now.laterToday).toEqual({ count: 0, next: null })
    expect(now.cards.map((card) => [card.text, card.kind])).toEqual([
      [a.text, 'due'],
      [b.text, 'due'],
      [now.cards[2]?.text, 'new'],
      [now.cards[3]?.text, 'new'],
    ])
    expect(now.cards[0]?.schedule).toMatchObject({ state: 'learning', version: 1, reps: 1 })
    expect((await queue(client, 1)).cards.map((card) => card.text)).toEqual([a.text])
  })

  it('refuses a new word the queue would not offer: past the day’s number, of another level, without a level (409)', async () => {
    const client = await learner('allowance', 'A1', { newWordsPerDay: 2 })
    // Read ahead, as for practice offline: two new words.
    const [a, b] = (await queue(client)).cards as [PracticeCard, PracticeCard]
    const first = randomUUID()
    const counted = await expectJson<GradeResult>(await grade(client, a, 3, { clientId: first }), 201)
    // The number lowered meanwhile (on another device): the day's one new word is started.
    await saveSettings(client, { newWordsPerDay: 1, dailyGoal: 20, timeZone: 'UTC' })
    expect((await queue(client)).newWords.status).toBe('dailyLimitReached')
    const refused = await expectApiError(await grade(client, b, 3), 409, 'new_word_not_allowed')
    expect(refused.message).toMatch(/1 new word/)
    // An answer counted before is still answered as it was (an outbox sending it again).
    expect(await expectJson<GradeResult>(await grade(client, a, 3, { clientId: first }), 200)).toEqual(counted)
    expect((await today(client)).done).toBe(1)

    // A word of another level than the current one, or none at all.
    const [weather] = (await queue(await learner('allowance-a2', 'A2'))).cards as [PracticeCard]
    const other = await learner('allowance-other', 'A1')
    expect((await expectApiError(await grade(other, weather, 3), 409, 'new_word_not_allowed')).message).toMatch(/level/)
    const none = await world.signUp(`allowance-none-${target}@example.com`)
    await expectApiError(await grade(none, a, 3), 409, 'new_word_not_allowed')
    // Still 404 for a word that does not exist.
    await expectApiError(await grade(other, { ...a, wordId: 2_147_483_647 }, 3), 404, 'not_found')
  })

  it('counts a new word graded offline against the allowance of the day it was given', async () => {
    clock = new Date('2026-07-15T01:00:00Z')
    const client = await learner('allowance-offline', 'A1', { newWordsPerDay: 1 })
    const [a] = (await queue(client)).cards as [PracticeCard]
    // Answered at 23:00 yesterday, sent now: yesterday's one new word.
    const yesterday = await expectJson<GradeResult>(await grade(client, a, 3, { reviewedAt: '2026-07-14T23:00:00Z' }), 201)
    expect(yesterday.day).toBe('2026-07-14')
    const [b] = (await queue(client)).cards.filter((card) => card.kind === 'new') as [PracticeCard]
    expect((await expectJson<GradeResult>(await grade(client, b, 3), 201)).day).toBe('2026-07-15')
  })

  it('counts a grade sent twice once, answering the first result again', async () => {
    const client = await learner('twice')
    const [card] = (await queue(client)).cards as [PracticeCard]
    const clientId = randomUUID()
    const first = await expectJson<GradeResult>(await grade(client, card, 3, { clientId }), 201)
    expect(first).toMatchObject({ clientId, wordId: card.wordId, grade: 3, undone: false, schedule: { state: 'learning', version: 1 } })
    // Again, as an offline queue resends it (even with another grade): the first result.
    expect(await expectJson<GradeResult>(await grade(client, card, 3, { clientId }), 200)).toEqual(first)
    expect(await expectJson<GradeResult>(await grade(client, card, 1, { clientId }), 200)).toEqual(first)
    // At once, too.
    const [next] = (await queue(client)).cards as [PracticeCard]
    const again = randomUUID()
    const answers = await Promise.all([grade(client, next, 4, { clientId: again }), grade(client, next, 4, { clientId: again })])
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201])
    expect((await today(client)).done).toBe(2)
  })

  it('answers 404 for a word that does not exist, or no longer does: a grade of it sent again stays counted', async () => {
    const client = await learner('gone', 'C1')
    const levelId = levels.C1?.id ?? 0
    const word = { language: 'en', text: `ephemeral-${target}`, translationEn: 'lasting a very short time', translationRu: 'мимолётный', example: null, partOfSpeech: 'adjective' }
    const created = await expectJson<{ id: number }>(await world.admin.request('POST', `/api/language-levels/${levelId}/words`, word), 201)
    const [card] = (await queue(client)).cards as [PracticeCard]
    expect(card.wordId).toBe(created.id)
    const clientId = randomUUID()
    const first = await expectJson<GradeResult>(await grade(client, card, 3, { clientId }), 201)
    expect((await world.admin.request('DELETE', `/api/words/${created.id}`)).status).toBe(204)
    expect(first.wordId).toBe(created.id)
    await expectApiError(await grade(client, card, 3, { clientId }), 404, 'not_found')
    // Never graded: no card, no review.
    await expectApiError(await grade(client, card, 3), 404, 'not_found')
    await expectApiError(await grade(client, { ...card, wordId: 2_147_483_647, schedule: { ...card.schedule, version: 0 } }, 3), 404, 'not_found')
    expect((await today(client)).done).toBe(1)
  })

  it('leaves one review of two tabs grading the same card at once: 409 to the other', async () => {
    const client = await learner('tabs')
    const [card] = (await queue(client)).cards as [PracticeCard]
    const answers = await Promise.all([grade(client, card, 3), grade(client, card, 4)])
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409])
    const refused = answers.find((answer) => answer.status === 409) as Response
    await expectApiError(refused, 409, 'conflict')
    // The card read before the grade is stale now.
    await expectApiError(await grade(client, card, 2), 409, 'conflict')
    expect((await today(client)).done).toBe(1)
  })

  it('tells the person’s other tabs about a grade, and nobody else', async () => {
    const client = await learner('live')
    const other = await learner('live-other')
    const { stream: mine } = await openReadyStream(world.server, { client })
    const { stream: theirs } = await openReadyStream(world.server, { client: other })
    try {
      const [card] = (await queue(client)).cards as [PracticeCard]
      await expectJson(await grade(client, card, 3), 201)
      await mine.waitForEvent('practice', (data) => data.reason === 'review')
      // The other person's stream hears their own grade, never the first person's.
      const [theirCard] = (await queue(other)).cards as [PracticeCard]
      await expectJson(await grade(other, theirCard, 3), 201)
      await theirs.waitForEvent('practice')
      expect(theirs.events.filter((event) => event.event === 'practice')).toHaveLength(1)
    } finally {
      mine.close()
      theirs.close()
    }
  })

  it('keeps each person’s cards their own', async () => {
    const owner = await learner('owner')
    const stranger = await learner('stranger')
    const [card] = (await queue(owner)).cards as [PracticeCard]
    const clientId = randomUUID()
    await expectJson(await grade(owner, card, 1, { clientId }), 201)
    later(2 * MINUTE)
    // The stranger's copy of the same word is new to them; grading it leaves the owner's alone.
    const theirs = (await queue(stranger)).cards.find((c) => c.wordId === card.wordId) as PracticeCard
    expect(theirs.schedule).toMatchObject({ state: 'new', version: 0 })
    await expectJson(await grade(stranger, theirs, 4), 201)
    // The owner's client id means nothing to the stranger: it is not theirs to undo.
    await expectApiError(await stranger.request('POST', '/api/me/practice/undo', { clientId }), 409, 'conflict')
    const owned = (await queue(owner)).cards[0] as PracticeCard
    expect(owned).toMatchObject({ wordId: card.wordId, kind: 'due', schedule: { state: 'learning', version: 1 } })
    expect((await today(owner)).done).toBe(1)
    expect((await today(stranger)).done).toBe(1)
  })

  it('undoes the latest grade only, within 10 minutes: the card is as it was, the grade uncounted', async () => {
    const client = await learner('undo')
    const [a, b] = (await queue(client)).cards as [PracticeCard, PracticeCard]
    const first = randomUUID()
    const second = randomUUID()
    await expectJson(await grade(client, a, 3, { clientId: first }), 201)
    await expectJson(await grade(client, b, 4, { clientId: second }), 201)
    const undo = (clientId: string) => client.request('POST', '/api/me/practice/undo', { clientId })
    await expectApiError(await undo(first), 409, 'conflict')
    const undone = await expectJson<UndoResult>(await undo(second))
    expect(undone).toMatchObject({ clientId: second, wordId: b.wordId, schedule: { state: 'new', version: 0 } })
    await expectApiError(await undo(second), 409, 'conflict')
    expect((await today(client)).done).toBe(1)
    // New again, and first among the new words left.
    const now = await queue(client)
    expect(now.cards[0]).toMatchObject({ wordId: b.wordId, kind: 'new' })
    // Sent again, the undone grade answers as it was, marked undone, and counts nothing.
    expect(await expectJson<GradeResult>(await grade(client, b, 4, { clientId: second }), 200)).toMatchObject({ undone: true })
    expect((await today(client)).done).toBe(1)
    // A grade of a card in review, undone: back to its state and schedule before, a new version.
    later(11 * MINUTE)
    const [due] = (await queue(client)).cards as [PracticeCard]
    expect(due).toMatchObject({ wordId: a.wordId, kind: 'due' })
    const third = randomUUID()
    await expectJson(await grade(client, due, 3, { clientId: third }), 201)
    const restored = await expectJson<UndoResult>(await undo(third))
    expect(restored.schedule).toMatchObject({ state: due.schedule.state, due: due.schedule.due, reps: due.schedule.reps, version: 3 })
    // Too late after 10 minutes.
    const fourth = randomUUID()
    await expectJson(await grade(client, { ...due, schedule: restored.schedule }, 3, { clientId: fourth }), 201)
    later(10 * MINUTE + 1000)
    await expectApiError(await undo(fourth), 409, 'conflict')
  })

  it('counts the client’s time of an answer queued offline, within a day, and the server’s otherwise', async () => {
    const client = await learner('offline')
    const cards = (await queue(client)).cards as [PracticeCard, PracticeCard, PracticeCard]
    const hoursAgo = new Date(clock.getTime() - 3 * 60 * MINUTE).toISOString()
    expect(await expectJson<GradeResult>(await grade(client, cards[0], 3, { reviewedAt: hoursAgo }), 201)).toMatchObject({ reviewedAt: hoursAgo })
    const daysAgo = new Date(clock.getTime() - 3 * DAY).toISOString()
    expect((await expectJson<GradeResult>(await grade(client, cards[1], 3, { reviewedAt: daysAgo }), 201)).reviewedAt).toBe(clock.toISOString())
    const ahead = new Date(clock.getTime() + 60 * MINUTE).toISOString()
    expect((await expectJson<GradeResult>(await grade(client, cards[2], 3, { reviewedAt: ahead }), 201)).reviewedAt).toBe(clock.toISOString())
  })

  it('keeps the goal and the streak day by day in the learner’s time zone, through a flight east', async () => {
    clock = new Date('2026-06-01T12:00:00Z') // 08:00 in New York
    const client = await learner('streak', 'A1', { dailyGoal: 2, newWordsPerDay: 100, timeZone: 'America/New_York' })
    expect(await today(client)).toMatchObject({ day: '2026-06-01', done: 0, goal: 2, goalMet: false, streak: 0, longest: 0 })
    await practise(client, 2)
    expect(await today(client)).toMatchObject({ done: 2, goalMet: true, streak: 1, longest: 1 })
    // Past midnight in UTC, still 1 June in New York; then 2 June there.
    later(14 * 60 * MINUTE) // 02:00 UTC on 2 June: 22:00 on 1 June in New York
    expect((await today(client)).day).toBe('2026-06-01')
    later(10 * 60 * MINUTE) // 12:00 UTC: 2 June in New York
    let now = await today(client)
    expect(now).toMatchObject({ day: '2026-06-02', done: 0, streak: 1, longest: 1 })
    expect(now.dueToday).toBeGreaterThan(0)
    await practise(client, 2)
    expect(await today(client)).toMatchObject({ streak: 2, longest: 2 })
    // 3 June: on the evening in New York (20:00) before practising, a flight to Tokyo, where it
    // is 4 June: the 3rd, left behind, does not break the streak.
    clock = new Date('2026-06-04T00:00:00Z')
    await saveSettings(client, { newWordsPerDay: 100, dailyGoal: 2, timeZone: 'Asia/Tokyo' })
    now = await today(client)
    expect(now).toMatchObject({ day: '2026-06-04', timeZone: 'Asia/Tokyo', done: 0, streak: 2 })
    await practise(client, 2)
    expect(await today(client)).toMatchObject({ streak: 3, longest: 3 })
    // Two days missed: the streak is gone, the longest stays.
    later(3 * DAY)
    now = await today(client)
    expect(now).toMatchObject({ streak: 0, longest: 3 })
    expect(now.calendar).toHaveLength(84)
    expect(now.calendar.at(-1)?.date).toBe(now.day)
    expect(now.calendar.filter((day) => day.reviews > 0).map((day) => [day.date, day.reviews, day.goalMet])).toEqual([
      ['2026-06-01', 2, true],
      ['2026-06-02', 2, true],
      ['2026-06-04', 2, true],
    ])
  })

  it('never dates a review after the learner’s today: a clock behind the one that graded the card before', async () => {
    clock = new Date('2026-08-10T12:00:00Z')
    const client = await learner('clock-behind', 'A1', { dailyGoal: 1 })
    const [card] = (await queue(client)).cards as [PracticeCard]
    const first = await expectJson<GradeResult>(await grade(client, card, 3), 201)
    expect(first.day).toBe('2026-08-10')
    // An instance whose clock is a day and a half behind: 10 August has not come anywhere on Earth
    // (the latest date, UTC+14's, is the 9th), yet the card's last review is on it.
    clock = new Date('2026-08-09T00:00:00Z')
    const again = await expectJson<GradeResult>(await grade(client, { ...card, schedule: first.schedule }, 3), 201)
    expect(again.day).toBe('2026-08-09')
    expect((await today(client)).calendar.at(-1)).toEqual({ date: '2026-08-09', reviews: 1, goalMet: true })
  })

  it('judges a day by the goal in force when it ended: a goal changed the same day counts for it, one changed later never', async () => {
    clock = new Date('2026-09-01T12:00:00Z')
    // Lowered after the day's reviews: met at once, and still met the next day.
    const lowered = await learner('goal-lowered', 'A1', { dailyGoal: 3 })
    await practise(lowered, 2)
    await saveSettings(lowered, { newWordsPerDay: 10, dailyGoal: 2, timeZone: 'UTC' })
    expect(await today(lowered)).toMatchObject({ done: 2, goal: 2, goalMet: true, streak: 1 })
    // Raised after them: no longer met, today or the next day.
    const raised = await learner('goal-raised', 'A1', { dailyGoal: 2 })
    await practise(raised, 2)
    await saveSettings(raised, { newWordsPerDay: 10, dailyGoal: 3, timeZone: 'UTC' })
    expect(await today(raised)).toMatchObject({ done: 2, goal: 3, goalMet: false, streak: 0 })
    later(DAY)
    expect(await today(lowered)).toMatchObject({ day: '2026-09-02', streak: 1 })
    expect((await today(lowered)).calendar.at(-2)).toEqual({ date: '2026-09-01', reviews: 2, goalMet: true })
    expect(await today(raised)).toMatchObject({ streak: 0, longest: 0 })

    // 2 September in UTC (12:00) is the 3rd in UTC+14: one review there under a goal lowered to 1,
    // then back: the 2nd again, a date judged by the goal of its own review (3), not the one set on the 3rd.
    const traveller = await learner('goal-elsewhere', 'A1', { dailyGoal: 3 })
    await practise(traveller, 1)
    await saveSettings(traveller, { newWordsPerDay: 10, dailyGoal: 1, timeZone: 'Etc/GMT-14' })
    await practise(traveller, 1)
    expect(await today(traveller)).toMatchObject({ day: '2026-09-03', goalMet: true, streak: 1 })
    await saveSettings(traveller, { newWordsPerDay: 10, dailyGoal: 1, timeZone: 'UTC' })
    expect(await today(traveller)).toMatchObject({ day: '2026-09-02', done: 1, goal: 3, goalMet: false, streak: 1 })
  })

  it('is in the person’s copy of their data, and deleted with their account', async () => {
    const client = await learner('data')
    await practise(client, 3)
    const response = await client.request('GET', '/api/me/export')
    const copy = JSON.parse(await response.text()) as {
      practice: { settings: PracticeSettings | null; cards: { wordId: number; state: string }[] }
      practiceReviews: { clientId: string; grade: number; day: string }[]
    }
    expect(copy.practice.settings).toMatchObject({ newWordsPerDay: 10, dailyGoal: 20, timeZone: 'UTC' })
    expect(copy.practice.cards).toHaveLength(3)
    expect(copy.practiceReviews).toHaveLength(3)
    expect(copy.practiceReviews[0]).toMatchObject({ grade: 3 })
    const me = await expectJson<{ user: { id: string } }>(await client.request('GET', '/api/me'))
    expect((await client.request('POST', '/api/auth/delete-user', { password })).status).toBe(200)
    const database = world.server.database
    if (database) {
      for (const table of ['practice_settings', 'practice_card', 'review_log']) {
        const rows = await database.query<{ n: string }>(`select count(*) as n from ${table} where user_id = $1`, [me.user.id])
        expect(rows[0]?.n, table).toBe('0')
      }
    }
  })

  // Last: it moves the clock to the end of a day.
  it('tells which cards come back before the learner’s day ends, and when the first does', async () => {
    const client = await learner('later-today', 'A1', { newWordsPerDay: 3 })
    // 23:52 in UTC, the learner's time zone.
    const endOfDay = Date.UTC(clock.getUTCFullYear(), clock.getUTCMonth(), clock.getUTCDate() + 1)
    later(endOfDay - 8 * MINUTE - clock.getTime())
    const [a, b, c] = (await queue(client)).cards as [PracticeCard, PracticeCard, PracticeCard]
    const again = await expectJson<GradeResult>(await grade(client, a, 1), 201) // 23:53
    const good = await expectJson<GradeResult>(await grade(client, b, 3), 201) // 00:02: tomorrow
    await expectJson(await grade(client, c, 4), 201) // days from now
    expect(Date.parse(good.schedule.due)).toBeGreaterThanOrEqual(endOfDay)
    expect((await queue(client)).laterToday).toEqual({ count: 1, next: again.schedule.due })
    // Due now: no longer later.
    later(2 * MINUTE)
    expect(await queue(client)).toMatchObject({ dueNow: 1, laterToday: { count: 0, next: null } })
    // In New York the day ends at 04:00 UTC: the "Good" comes back within it.
    await saveSettings(client, { newWordsPerDay: 3, dailyGoal: 20, timeZone: 'America/New_York' })
    expect((await queue(client)).laterToday).toEqual({ count: 1, next: good.schedule.due })
  })
})
