import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Deck } from '@/shared/decks'
import type { LanguageLevel } from '@/shared/levels'
import type { PracticeCard, PracticeQueue, PracticeWay } from '@/shared/practice'
import type { Word, WordPage } from '@/shared/words'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { startAppServer } from '../helpers/app-server'
import type { Client } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { allLevels } from '../helpers/levels'
import { expectJson } from '../helpers/server'

/*
 * The ways to practise in the queue (PRODUCT §13, docs/decisions/0036-ways-to-practise.md): the
 * ways that are on, and each card's four choices for "Choose the answer" — of its level or deck,
 * its part of speech where there are enough, the answer once, the same on every read.
 */

const key = (text: string) => text.normalize('NFC').toLowerCase().trim()

describe.each(databaseTargets())('ways to practise on %s', (target) => {
  let world: AdminWorld
  let levels: Record<string, LanguageLevel>

  beforeAll(async () => {
    world = await startAdminWorld(target, 'practice-ways', {}, (options) => startAppServer(options))
    levels = Object.fromEntries((await allLevels(world.visitor)).map((level) => [level.code, level]))
  })
  afterAll(async () => {
    await world.stop()
  })

  async function learner(name: string, ways?: PracticeWay[]): Promise<Client> {
    const client = await world.signUp(`${name}-${target}@example.com`)
    const profile = { language: 'en', currentLevelId: levels.A1?.id ?? null, targetLevelId: null }
    expect((await client.request('PUT', '/api/me/profile', profile)).status).toBe(200)
    const settings = { newWordsPerDay: 40, dailyGoal: 20, timeZone: 'UTC', ...(ways ? { ways } : {}) }
    expect((await client.request('PUT', '/api/me/practice/settings', settings)).status).toBe(200)
    return client
  }
  const queue = async (client: Client, query = '') => expectJson<PracticeQueue>(await client.request('GET', `/api/me/practice/queue${query}`))

  /** Four distinct choices (by the checker's key), the card's own text exactly once among them. */
  function expectFourChoices(card: PracticeCard): string[] {
    const choices = card.choices ?? []
    expect(choices).toHaveLength(4)
    expect(choices.filter((choice) => choice === card.text)).toHaveLength(1)
    expect(new Set(choices.map(key)).size).toBe(4)
    return choices
  }

  it('gives each course card four choices of its level and part of speech, the same on every read', async () => {
    const client = await learner('chooser')
    const words = await expectJson<WordPage>(await world.admin.request('GET', `/api/language-levels/${levels.A1?.id}/words?pageSize=200`))
    const partOf = new Map(words.items.map((word) => [word.text, word.partOfSpeech]))
    const first = await queue(client, '?limit=40')
    expect(first.ways).toEqual(['flashcard', 'type', 'choose', 'listen', 'gap'])
    expect(first.cards).toHaveLength(40)
    const nouns = first.cards.filter((card) => card.partOfSpeech === 'noun')
    expect(nouns.length).toBeGreaterThan(3)
    for (const card of first.cards) {
      const choices = expectFourChoices(card)
      // Every choice is an A1 word; the nouns' others are nouns (A1 has plenty).
      for (const choice of choices) expect(partOf.has(choice), choice).toBe(true)
      if (card.partOfSpeech === 'noun') expect(choices.map((choice) => partOf.get(choice))).toEqual(['noun', 'noun', 'noun', 'noun'])
    }
    // Not always the answer in one place.
    expect(new Set(first.cards.map((card) => card.choices?.indexOf(card.text))).size).toBeGreaterThan(1)
    const again = await queue(client, '?limit=40')
    expect(again.cards.map((card) => card.choices)).toEqual(first.cards.map((card) => card.choices))
  })

  it('sends no choices while "Choose the answer" is off', async () => {
    const client = await learner('flashcards-only', ['flashcard'])
    const read = await queue(client)
    expect(read.ways).toEqual(['flashcard'])
    expect(read.cards.length).toBeGreaterThan(0)
    expect(read.cards.every((card) => card.choices === null)).toBe(true)
  })

  it("takes a deck card's choices from its deck, never the answer twice, none for long texts or a deck too small", async () => {
    const client = await learner('deck-chooser')
    const deck = await expectJson<Deck>(await client.request('POST', '/api/me/decks', { name: 'Verbos', language: 'es' }), 201)
    const add = async (deckId: number, text: string, partOfSpeech: string | null) =>
      expect((await client.request('POST', `/api/me/decks/${deckId}/words`, { text, translationEn: `gloss of ${text}`, partOfSpeech })).status).toBe(201)
    for (const verb of ['hablar', 'comer', 'vivir', 'beber', 'abrir']) await add(deck.id, verb, 'verb')
    await add(deck.id, 'COMER', 'verb')
    await add(deck.id, 'la mesa', 'noun')
    await add(deck.id, 'Me gustaría reservar una mesa para dos personas esta noche', 'phrase')
    const small = await expectJson<Deck>(await client.request('POST', '/api/me/decks', { name: 'Pocas', language: 'es' }), 201)
    await add(small.id, 'sí', null)
    await add(small.id, 'no', null)

    const read = await queue(client, `?deck=${deck.id}&limit=50`)
    expect(read.cards).toHaveLength(8)
    const inDeck = new Set(read.cards.map((card) => card.text))
    for (const card of read.cards) {
      if (card.text.startsWith('Me gustaría')) {
        expect(card.choices).toBeNull()
        continue
      }
      const choices = expectFourChoices(card)
      for (const choice of choices) expect(inDeck.has(choice)).toBe(true)
      // Four verbs are there besides each verb: its others are verbs; "comer" never with "COMER".
      if (card.partOfSpeech === 'verb') expect(choices).not.toContain('la mesa')
      if (key(card.text) === 'comer') expect(choices.filter((choice) => key(choice) === 'comer')).toHaveLength(1)
    }
    const few = await queue(client, `?deck=${small.id}`)
    expect(few.cards.map((card) => card.choices)).toEqual([null, null])
  })

  it("takes an administrator's change of a level's word into the next choices (the level's words kept in memory are dropped)", async () => {
    const client = await learner('sees-renamed')
    const [card] = (await queue(client)).cards
    const choices = card ? expectFourChoices(card) : []
    const other = choices.find((choice) => choice !== card?.text) as string
    const words = await expectJson<WordPage>(await world.admin.request('GET', `/api/language-levels/${levels.A1?.id}/words?pageSize=200`))
    const renamed = words.items.find((word) => word.text === other) as Word
    const changed = await expectJson<Word>(await world.admin.request('PATCH', `/api/words/${renamed.id}`, { text: 'zyzzyva', version: renamed.version }))
    try {
      // Heard through the live events (this instance's own): the same choices, the new text in its place.
      await expect
        .poll(async () => (await queue(client)).cards.find((read) => read.wordId === card?.wordId)?.choices)
        .toEqual(choices.map((choice) => (choice === other ? 'zyzzyva' : choice)))
    } finally {
      await world.admin.request('PATCH', `/api/words/${renamed.id}`, { text: other, version: changed.version })
    }
  })
})
