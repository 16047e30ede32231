import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Deck, DeckList, DeckWord, DeckWordPage } from '@/shared/decks'
import type { LanguageLevel } from '@/shared/levels'
import type { GradeResult, PracticeCard, PracticeQueue, PracticeToday } from '@/shared/practice'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { startAppServer } from '../helpers/app-server'
import type { Client } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { allLevels } from '../helpers/levels'
import { expectApiError, expectJson } from '../helpers/server'

/*
 * A learner's own decks over HTTP (docs/product.md §12): making and changing decks and their words,
 * the counts, privacy (another learner and an administrator get 404), the limits, and their cards
 * in the daily queue after the course words, or practised alone.
 */

const MINUTE = 60_000

describe.each(databaseTargets())('decks on %s', (target) => {
  let world: AdminWorld
  let levels: Record<string, LanguageLevel>
  let clock = new Date('2026-05-10T09:00:00Z')

  beforeAll(async () => {
    world = await startAdminWorld(target, 'decks', {}, (options) => startAppServer({ ...options, now: () => clock }))
    levels = Object.fromEntries((await allLevels(world.visitor)).map((level) => [level.code, level]))
  })
  afterAll(async () => {
    await world.stop()
  })

  async function learner(name: string, level: string | null = 'A1', newWordsPerDay = 10): Promise<Client> {
    const client = await world.signUp(`${name}-${target}@example.com`)
    const profile = { language: 'en', currentLevelId: level ? (levels[level]?.id ?? null) : null, targetLevelId: null }
    expect((await client.request('PUT', '/api/me/profile', profile)).status).toBe(200)
    expect((await client.request('PUT', '/api/me/practice/settings', { newWordsPerDay, dailyGoal: 20, timeZone: 'UTC' })).status).toBe(200)
    return client
  }
  const makeDeck = async (client: Client, body: Record<string, unknown> = {}) =>
    expectJson<Deck>(await client.request('POST', '/api/me/decks', { name: 'Spanish verbs', language: 'es', ...body }), 201)
  const addWord = async (client: Client, deckId: number, body: Record<string, unknown>) =>
    expectJson<DeckWord>(await client.request('POST', `/api/me/decks/${deckId}/words`, body), 201)
  const queue = async (client: Client, query = '') => expectJson<PracticeQueue>(await client.request('GET', `/api/me/practice/queue${query}`))
  const grade = (client: Client, card: PracticeCard, value: 1 | 2 | 3 | 4) =>
    client.request('POST', '/api/me/practice/reviews', { clientId: randomUUID(), wordId: card.wordId, grade: value, version: card.schedule.version })

  it('is for signed-in people only', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/me/decks'],
      ['POST', '/api/me/decks', { name: 'x', language: 'es' }],
      ['GET', '/api/me/decks/1'],
      ['GET', '/api/me/decks/1/words'],
      ['POST', '/api/me/decks/1/words', { text: 'x', translationEn: 'y' }],
    ] as const) {
      await expectApiError(await world.visitor.request(method, path, body), 401, 'unauthenticated')
    }
  })

  it('makes, lists, changes and deletes decks, with the course row first and counts of each', async () => {
    const client = await learner('deck-maker')
    const empty = await expectJson<DeckList>(await client.request('GET', '/api/me/decks'))
    expect(empty.decks).toEqual([])
    expect(empty.course).toMatchObject({ levelCode: 'A1', language: 'en', due: 0 })
    expect(empty.course?.total).toBeGreaterThan(50)
    expect(empty.course?.new).toBe(empty.course?.total)

    const made = await makeDeck(client, { name: '  Travel::Spain  ', description: 'From my trip' })
    expect(made).toMatchObject({ name: 'Travel::Spain', language: 'es', description: 'From my trip', practiseDaily: true, new: 0, due: 0, total: 0, version: 1 })
    await addWord(client, made.id, { text: 'la playa', translationEn: 'the beach', reversed: true })
    await addWord(client, made.id, { text: 'el tren', translationRu: 'поезд', partOfSpeech: 'noun', tags: ['transport'] })

    const listed = await expectJson<DeckList>(await client.request('GET', '/api/me/decks'))
    expect(listed.decks).toHaveLength(1)
    // Three cards: the reversed word makes two.
    expect(listed.decks[0]).toMatchObject({ id: made.id, new: 3, due: 0, total: 3 })

    const changed = await expectJson<Deck>(await client.request('PATCH', `/api/me/decks/${made.id}`, { practiseDaily: false, version: 1 }))
    expect(changed).toMatchObject({ practiseDaily: false, version: 2, total: 3 })
    await expectApiError(await client.request('PATCH', `/api/me/decks/${made.id}`, { name: 'Stale', version: 1 }), 409, 'conflict')

    await expectApiError(await client.request('POST', '/api/me/decks', { name: '', language: 'es' }), 400, 'validation_failed')
    await expectApiError(await client.request('POST', '/api/me/decks', { name: 'x'.repeat(101), language: 'es' }), 400, 'validation_failed')
    await expectApiError(await client.request('POST', '/api/me/decks', { name: 'Klingon', language: 'tlh' }), 400, 'validation_failed')

    expect((await client.request('DELETE', `/api/me/decks/${made.id}`)).status).toBe(204)
    await expectApiError(await client.request('GET', `/api/me/decks/${made.id}`), 404, 'not_found')
    expect((await expectJson<DeckList>(await client.request('GET', '/api/me/decks'))).decks).toEqual([])
  })

  it("keeps a deck's words: search, sort, page, edit (the reverse card added and removed), delete", async () => {
    const client = await learner('deck-words')
    const deck = await makeDeck(client)
    const words = ['hablar', 'comer', 'vivir', 'beber', 'abrir']
    for (const [i, text] of words.entries()) {
      await addWord(client, deck.id, { text, translationEn: `to ${['speak', 'eat', 'live', 'drink', 'open'][i]}`, notes: i === 0 ? 'regular -ar' : null })
    }
    const page = (query: string) => client.request('GET', `/api/me/decks/${deck.id}/words${query}`).then((r) => expectJson<DeckWordPage>(r))
    expect((await page('')).items.map((w) => w.text)).toEqual(words)
    expect((await page('?sort=text')).items.map((w) => w.text)).toEqual([...words].sort())
    expect((await page('?sort=text&dir=desc')).items.map((w) => w.text)).toEqual([...words].sort().reverse())
    expect(await page('?pageSize=2&page=3')).toMatchObject({ total: 5, page: 3, pageSize: 2, items: [{ text: 'abrir' }] })
    expect((await page('?q=DRINK')).items.map((w) => w.text)).toEqual(['beber'])
    expect((await page('?q=regular')).items.map((w) => w.text)).toEqual(['hablar'])
    expect((await page('?q=%25')).items).toEqual([])

    const first = (await page('')).items[0] as DeckWord
    expect(first).toMatchObject({ kind: 'basic', cards: 1, translationEn: 'to speak', translationRu: 'to speak', due: null })
    const body = { text: 'hablar', translationEn: 'to speak', translationRu: 'говорить', tags: ['verb', 'ar'], reversed: true }
    const reversed = await expectJson<DeckWord>(await client.request('PUT', `/api/me/decks/${deck.id}/words/${first.id}`, body))
    expect(reversed).toMatchObject({ kind: 'reversed', cards: 2, translationRu: 'говорить', tags: ['verb', 'ar'] })
    const single = await expectJson<DeckWord>(await client.request('PUT', `/api/me/decks/${deck.id}/words/${first.id}`, { ...body, reversed: false }))
    expect(single).toMatchObject({ kind: 'basic', cards: 1 })
    await expectApiError(await client.request('POST', `/api/me/decks/${deck.id}/words`, { text: 'sin' }), 400, 'validation_failed')
    await expectApiError(await client.request('POST', `/api/me/decks/${deck.id}/words`, { text: 'x', translationEn: 'y', tags: ['two words'] }), 400, 'validation_failed')

    expect((await client.request('DELETE', `/api/me/decks/${deck.id}/words/${first.id}`)).status).toBe(204)
    await expectApiError(await client.request('DELETE', `/api/me/decks/${deck.id}/words/${first.id}`), 404, 'not_found')
    expect((await page('')).total).toBe(4)
  })

  it("keeps a deck private: another learner and an administrator get 404, and cannot grade its cards", async () => {
    const owner = await learner('deck-owner')
    const other = await learner('deck-other')
    const deck = await makeDeck(owner)
    const word = await addWord(owner, deck.id, { text: 'secreto', translationEn: 'secret' })
    for (const client of [other, world.admin]) {
      await expectApiError(await client.request('GET', `/api/me/decks/${deck.id}`), 404, 'not_found')
      await expectApiError(await client.request('GET', `/api/me/decks/${deck.id}/words`), 404, 'not_found')
      await expectApiError(await client.request('PATCH', `/api/me/decks/${deck.id}`, { name: 'Mine', version: 1 }), 404, 'not_found')
      await expectApiError(await client.request('DELETE', `/api/me/decks/${deck.id}`), 404, 'not_found')
      await expectApiError(await client.request('POST', `/api/me/decks/${deck.id}/words`, { text: 'a', translationEn: 'b' }), 404, 'not_found')
      await expectApiError(await client.request('PUT', `/api/me/decks/${deck.id}/words/${word.id}`, { text: 'a', translationEn: 'b' }), 404, 'not_found')
      await expectApiError(await client.request('DELETE', `/api/me/decks/${deck.id}/words/${word.id}`), 404, 'not_found')
      await expectApiError(await client.request('GET', `/api/me/practice/queue?deck=${deck.id}`), 404, 'not_found')
      expect((await expectJson<DeckList>(await client.request('GET', '/api/me/decks'))).decks).toEqual([])
    }
    // Its card, by the id of its word: not gradable by someone else, not editable as a course word.
    const owned = (await queue(owner, `?deck=${deck.id}`)).cards[0] as PracticeCard
    expect(owned.text).toBe('secreto')
    await expectApiError(await grade(other, owned, 3), 404, 'not_found')
    await expectApiError(await world.admin.request('PATCH', `/api/words/${owned.wordId}`, { text: 'stolen', version: 1 }), 404, 'not_found')
    await expectApiError(await world.admin.request('DELETE', `/api/words/${owned.wordId}`), 404, 'not_found')
    expect((await queue(other)).cards.map((card) => card.text)).not.toContain('secreto')
  })

  it('puts deck cards in the daily queue after the course words, within the one allowance; a deck can be practised alone', async () => {
    const client = await learner('deck-queue', 'A1', 5)
    const deck = await makeDeck(client)
    const paused = await makeDeck(client, { name: 'Later', practiseDaily: false })
    for (const text of ['uno', 'dos', 'tres']) await addWord(client, deck.id, { text, translationEn: text })
    await addWord(client, paused.id, { text: 'pausa', translationEn: 'pause' })

    const daily = await queue(client)
    expect(daily.cards).toHaveLength(5)
    expect(daily.cards.every((card) => card.language === 'en')).toBe(true)
    // Without a level, the daily practice takes the decks' new cards alone.
    const deckOnly = await learner('deck-only', null, 5)
    const own = await makeDeck(deckOnly)
    for (const text of ['uno', 'dos']) await addWord(deckOnly, own.id, { text, translationEn: text })
    const fromDecks = await queue(deckOnly)
    expect(fromDecks.cards.map((card) => card.text)).toEqual(['uno', 'dos'])
    expect(fromDecks.newWords.status).toBe('available')
    for (const card of fromDecks.cards) await expectJson<GradeResult>(await grade(deckOnly, card, 3), 201)
    const todays = await expectJson<PracticeToday>(await deckOnly.request('GET', '/api/me/practice/today'))
    expect(todays).toMatchObject({ done: 2, dueToday: 2, newToday: 0 })
    expect((await expectJson<Deck>(await deckOnly.request('GET', `/api/me/decks/${own.id}`)))).toMatchObject({ new: 0, due: 2, total: 2 })

    // One deck alone: its cards only, the paused one too.
    const alone = await queue(client, `?deck=${paused.id}`)
    expect(alone.cards.map((card) => card.text)).toEqual(['pausa'])
    expect(await expectJson<GradeResult>(await grade(client, alone.cards[0] as PracticeCard, 1), 201)).toBeDefined()
    clock = new Date(clock.getTime() + 2 * MINUTE)
    // Due again, but not in the daily practice: the deck is not practised every day.
    expect((await queue(client, `?deck=${paused.id}`)).cards.map((card) => card.text)).toEqual(['pausa'])
    expect((await queue(client)).cards.map((card) => card.text)).not.toContain('pausa')
  })

  it("takes a deck's new cards in order past every card already answered, and gives a card back to them when its first grade is undone", async () => {
    const client = await learner('deck-new-cards', null, 3)
    const deck = await makeDeck(client)
    for (const text of ['eins', 'zwei', 'drei', 'vier', 'fünf']) await addWord(client, deck.id, { text, translationEn: text })
    const first = await queue(client)
    expect(first.cards.map((card) => card.text)).toEqual(['eins', 'zwei', 'drei'])
    const eins = first.cards[0] as PracticeCard
    await expectJson<GradeResult>(await grade(client, eins, 3), 201)
    const zwei = first.cards[1] as PracticeCard
    const clientId = randomUUID()
    await expectJson<GradeResult>(
      await client.request('POST', '/api/me/practice/reviews', { clientId, wordId: zwei.wordId, grade: 3, version: zwei.schedule.version }),
      201,
    )
    // Two started of three a day: the next new card is the first not answered.
    expect((await queue(client)).cards.filter((card) => card.kind === 'new').map((card) => card.text)).toEqual(['drei'])
    await expectJson(await client.request('POST', '/api/me/practice/undo', { clientId }), 200)
    expect((await queue(client)).cards.filter((card) => card.kind === 'new').map((card) => card.text)).toEqual(['zwei', 'drei'])
    expect(await expectJson<Deck>(await client.request('GET', `/api/me/decks/${deck.id}`))).toMatchObject({ new: 4, total: 5 })
  })

  it('holds at most 100 decks a learner', async () => {
    const client = await learner('deck-hoarder', null)
    for (let i = 0; i < 100; i++) await makeDeck(client, { name: `Deck ${i}` })
    await expectApiError(await client.request('POST', '/api/me/decks', { name: 'One too many', language: 'es' }), 409, 'decks_full')
  })
})
