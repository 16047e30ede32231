import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Deck, DeckList, DeckWord, DeckWordPage } from '@/shared/decks'
import type { ImportJob } from '@/shared/imports'
import type { PracticeCard, PracticeQueue } from '@/shared/practice'
import type { DataExport } from '@/server/api/data-export/docs'
import { type AnkiPackage, readAnkiPackage } from '@/server/api/imports/anki/read'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { type PackageSpec, stock, writeAnkiPackage } from '../helpers/anki-package'
import { startAppServer } from '../helpers/app-server'
import type { Client } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { expectApiError, expectJson } from '../helpers/server'

/*
 * A deck's exports over HTTP (docs/product.md §12): CSV with formulas protected; an Anki package
 * (schema 11) that the package reader opens with its notes, cards, history and media; imported by
 * another learner to the same words, card states and history, for a deck imported from Anki and
 * for one made by hand; the owner's only.
 */

const DAY = 86_400
const created = Date.UTC(2026, 0, 1) / 1000
const start = new Date('2026-05-10T09:00:00Z')
const today = Math.floor((start.getTime() / 1000 - created) / DAY)
const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b3a1f40000000049454e44ae426082', 'hex')
const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(61, 1)])

/** A nested deck: basic (with an image), reversed, cloze (with a sound) notes; review, learning, suspended and new cards, with history. */
const travel: PackageSpec = {
  format: 'anki21b',
  created,
  decks: [{ id: 1, name: 'Default' }, { id: 200, name: 'Spanish::Travel' }],
  noteTypes: [stock.basic, stock.reversed, stock.cloze],
  notes: [
    { id: 1, guid: 'g-casa', noteTypeId: stock.basic.id, fields: ['la <b>casa</b><img src="house.png">', 'the house'], tags: ['home', 'noun'] },
    { id: 2, guid: 'g-comer', noteTypeId: stock.reversed.id, fields: ['comer', 'to eat'] },
    { id: 3, guid: 'g-cloze', noteTypeId: stock.cloze.id, fields: ['Yo {{c1::hablo}} {{c2::español::language}}[sound:hablo.mp3]', 'grammar'] },
    { id: 4, guid: 'g-perro', noteTypeId: stock.basic.id, fields: ['el perro', 'the dog'] },
    { id: 5, guid: 'g-gato', noteTypeId: stock.basic.id, fields: ['el gato', 'the cat'] },
    { id: 6, guid: 'g-nuevo', noteTypeId: stock.basic.id, fields: ['nuevo', 'new'] },
  ],
  cards: [
    { id: 10, noteId: 1, deckId: 200, type: 2, queue: 2, due: today + 3, interval: 10, factor: 2500, reps: 3 },
    { id: 20, noteId: 2, deckId: 200, ordinal: 0, type: 2, queue: 2, due: today + 1, interval: 4, factor: 2350, reps: 3, lapses: 1 },
    { id: 21, noteId: 2, deckId: 200, ordinal: 1, type: 0, queue: 0, due: 2 },
    { id: 30, noteId: 3, deckId: 200, ordinal: 0, type: 0, queue: 0, due: 3 },
    { id: 31, noteId: 3, deckId: 200, ordinal: 1, type: 2, queue: 2, due: today, interval: 1, factor: 2500, reps: 1 },
    { id: 40, noteId: 4, deckId: 200, type: 2, queue: -1, due: today - 1, interval: 5, factor: 2500, reps: 1 },
    { id: 50, noteId: 5, deckId: 200, type: 1, queue: 1, due: start.getTime() / 1000 + 540, reps: 1 },
    { id: 60, noteId: 6, deckId: 200, type: 0, queue: -1, due: 4 },
  ],
  reviews: [
    { id: (created + 10 * DAY) * 1000, cardId: 10, ease: 3, interval: -600, lastInterval: 0, factor: 0, time: 4000, type: 0 },
    { id: (created + 10 * DAY + 600) * 1000, cardId: 10, ease: 3, interval: 1, lastInterval: -600, factor: 2500, time: 3000, type: 0 },
    { id: (created + 11 * DAY) * 1000, cardId: 10, ease: 3, interval: 10, lastInterval: 1, factor: 2500, time: 3000, type: 1 },
    { id: (created + 100 * DAY) * 1000, cardId: 20, ease: 4, interval: 3, lastInterval: 0, factor: 2500, time: 3000, type: 0 },
    { id: (created + 110 * DAY) * 1000, cardId: 20, ease: 1, interval: -600, lastInterval: 3, factor: 2300, time: 3000, type: 1 },
    { id: (created + 110 * DAY + 700) * 1000, cardId: 20, ease: 3, interval: 4, lastInterval: -600, factor: 2300, time: 3000, type: 2 },
    { id: (created + 120 * DAY) * 1000, cardId: 31, ease: 4, interval: 1, lastInterval: 0, factor: 2500, time: 3000, type: 0 },
    { id: (created + 12 * DAY) * 1000, cardId: 40, ease: 3, interval: 5, lastInterval: 0, factor: 2500, time: 3000, type: 0 },
    // A manual reschedule: not an answer.
    { id: (created + 13 * DAY) * 1000, cardId: 40, ease: 0, interval: 5, lastInterval: 5, factor: 2500, time: 0, type: 4 },
    { id: start.getTime() - 60_000, cardId: 50, ease: 3, interval: -600, lastInterval: 0, factor: 0, time: 3000, type: 0 },
  ],
  media: [{ name: 'house.png', data: png }, { name: 'hablo.mp3', data: mp3 }],
}

type ExportedCard = DataExport['practice']['cards'][number]

describe.each(databaseTargets())('deck export on %s', (target) => {
  let world: AdminWorld
  let folder: string
  let clock = start

  beforeAll(async () => {
    world = await startAdminWorld(target, 'deck-export', {}, (options) => startAppServer({ ...options, now: () => clock }))
    folder = await mkdtemp(path.join(os.tmpdir(), 'lingua-deck-export-test-'))
  })
  afterAll(async () => {
    await world.stop()
    await rm(folder, { recursive: true, force: true })
  })

  async function learner(name: string): Promise<Client> {
    const client = await world.signUp(`${name}-${target}@example.com`)
    expect((await client.request('PUT', '/api/me/profile', { language: 'es', currentLevelId: null, targetLevelId: null })).status).toBe(200)
    expect((await client.request('PUT', '/api/me/practice/settings', { newWordsPerDay: 10, dailyGoal: 20, timeZone: 'UTC' })).status).toBe(200)
    return client
  }

  /** Uploads a file to import and waits for the job's end. */
  async function imported(client: Client, name: string, bytes: Buffer): Promise<ImportJob> {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(bytes)]), name)
    const headers = { Origin: client.origin, Cookie: client.cookieHeader() }
    const { id } = await expectJson<{ id: string }>(await client.request('POST', '/api/me/imports', undefined, { body: form, headers }), 202)
    for (let i = 0; i < 300; i++) {
      const job = await expectJson<ImportJob>(await client.request('GET', `/api/me/imports/${id}`))
      if (job.status === 'done' || job.status === 'failed') return job
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`import ${id} did not end`)
  }

  const exportedPackage = async (client: Client, deckId: number): Promise<Buffer> => {
    const response = await client.request('GET', `/api/me/decks/${deckId}/export.apkg`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/apkg')
    return Buffer.from(await response.arrayBuffer())
  }

  async function opened(bytes: Buffer): Promise<AnkiPackage> {
    const file = path.join(folder, `${randomUUID()}.apkg`)
    await writeFile(file, bytes)
    return readAnkiPackage(file)
  }

  const deckNamed = async (client: Client, name: string): Promise<Deck> =>
    (await expectJson<DeckList>(await client.request('GET', '/api/me/decks'))).decks.find((deck) => deck.name === name) as Deck
  const wordsOf = async (client: Client, deckId: number) =>
    (await expectJson<DeckWordPage>(await client.request('GET', `/api/me/decks/${deckId}/words?sort=text&pageSize=100`))).items.map(
      (word) => [word.text, word.translationEn, word.translationRu, word.kind, word.cards, word.tags, word.notes],
    )
  /** Each card's state (by its front) and the reviews that count, from the learner's copy of their data. */
  async function practiceOf(client: Client) {
    const data = await expectJson<DataExport>(await client.request('GET', '/api/me/export'))
    const cards = new Map(data.practice.cards.map((card) => [card.word, card]))
    return { cards, reviews: data.practiceReviews.filter((review) => review.undoneAt === null).length }
  }
  function expectSameCards(a: Map<string, ExportedCard>, b: Map<string, ExportedCard>) {
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort())
    for (const [text, card] of a) {
      const other = b.get(text) as ExportedCard
      expect({ text, state: other.state, day: other.due.slice(0, 10), reps: other.reps, lapses: other.lapses, suspended: other.suspended }).toEqual({
        text,
        state: card.state,
        day: card.due.slice(0, 10),
        reps: card.reps,
        lapses: card.lapses,
        suspended: card.suspended,
      })
      expect(Math.abs(other.stability - card.stability), `${text}: stability`).toBeLessThan(1e-6)
      expect(Math.abs(other.difficulty - card.difficulty), `${text}: difficulty`).toBeLessThan(1e-6)
    }
  }

  it('exports a deck as CSV: one row a word, formulas protected, named after the deck', async () => {
    const client = await learner('csv-owner')
    const deck = await expectJson<Deck>(await client.request('POST', '/api/me/decks', { name: 'Verbos::Básicos', language: 'es' }), 201)
    const add = (body: Record<string, unknown>) => client.request('POST', `/api/me/decks/${deck.id}/words`, body)
    expect((await add({ text: 'hablar', translationEn: 'to speak', translationRu: 'говорить', reversed: true, partOfSpeech: 'verb', tags: ['a', 'b'] })).status).toBe(201)
    expect((await add({ text: '=HYPERLINK("x")', translationEn: '+1', example: 'Dice, "hola"', notes: '@home\nline two' })).status).toBe(201)
    const response = await client.request('GET', `/api/me/decks/${deck.id}/export.csv`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="verbos-basicos.csv"')
    const bytes = Buffer.from(await response.arrayBuffer())
    expect(bytes.subarray(0, 3).toString('hex')).toBe('efbbbf')
    expect(bytes.subarray(3).toString('utf8')).toBe(
      [
        'language,text,translation_en,translation_ru,example,part_of_speech,deck,tags,notes',
        'es,hablar,to speak,говорить,,verb,Verbos::Básicos,a b,',
        `es,"'=HYPERLINK(""x"")",'+1,'+1,"Dice, ""hola""",,Verbos::Básicos,,"'@home\nline two"`,
        '',
      ].join('\r\n'),
    )
  })

  it('exports an imported deck as a package the reader opens: notes, cards, history and media', async () => {
    const client = await learner('apkg-reader')
    expect(await imported(client, 'travel.apkg', await packageFile(travel))).toMatchObject({ status: 'done', notes: 6, cards: 8, reviews: 9, media: 2 })
    const deck = await deckNamed(client, 'Spanish::Travel')
    const response = await client.request('GET', `/api/me/decks/${deck.id}/export.apkg`)
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="spanish-travel.apkg"')
    const pkg = await opened(Buffer.from(await response.arrayBuffer()))
    try {
      const { collection } = pkg
      expect(collection.format).toBe('anki2')
      expect(collection.decks.map((d) => [d.id, d.name])).toEqual([[1, 'Default'], [200, 'Spanish::Travel']])
      expect(collection.noteTypes.map((type) => type.kind).sort()).toEqual(['basic', 'cloze', 'reversed'])
      expect(collection.notes.map((note) => [note.id, note.guid, note.tags])).toEqual([
        [1, 'g-casa', ['home', 'noun']], [2, 'g-comer', []], [3, 'g-cloze', []], [4, 'g-perro', []], [5, 'g-gato', []], [6, 'g-nuevo', []],
      ])
      expect(collection.notes[0]?.fields).toEqual(['la <b>casa</b><img src="house.png" />', 'the house'])
      expect(collection.notes[2]?.fields).toEqual(['Yo {{c1::hablo}} {{c2::español::language}}[sound:hablo.mp3]', 'grammar'])
      // The cards keep the ids their history names, their schedules as Anki had them (the days
      // counted from the export's creation, the deck's first day: Lingua keeps no other).
      expect(collection.created).toBe(created + 10 * DAY + 4 * 3600)
      const card = (id: number) => {
        const found = collection.cards.find((c) => c.id === id)
        return found && (found.type === 2 || found.queue === 3) ? { ...found, due: found.due + 10 } : found
      }
      expect(collection.cards.every((c) => c.deckId === 200)).toBe(true)
      expect(card(10)).toMatchObject({ noteId: 1, type: 2, queue: 2, due: today + 3, interval: 10, reps: 3 })
      expect(card(20)).toMatchObject({ noteId: 2, ordinal: 0, type: 2, queue: 2, due: today + 1, reps: 3, lapses: 1 })
      expect(card(31)).toMatchObject({ noteId: 3, ordinal: 1, type: 2, queue: 2, due: today })
      expect(card(40)).toMatchObject({ type: 2, queue: -1, due: today - 1 })
      expect(card(50)).toMatchObject({ type: 1, queue: 1, due: start.getTime() / 1000 + 540 })
      const fresh = collection.cards.filter((c) => c.type === 0).map((c) => [c.noteId, c.ordinal, c.queue])
      expect(fresh).toEqual(expect.arrayContaining([[2, 1, 0], [3, 0, 0], [6, 0, -1]]))
      expect(collection.cards).toHaveLength(8)
      const answers = (travel.reviews ?? []).filter((review) => review.ease > 0)
      expect(collection.reviews.all().map((r) => [r.id, r.cardId, r.ease, r.type])).toEqual(answers.map((r) => [r.id, r.cardId, r.ease, r.type]).sort((a, b) => (a[0] as number) - (b[0] as number)))
      expect(collection.media.map((m) => [m.entry, m.name])).toEqual([['0', 'house.png'], ['1', 'hablo.mp3']])
      expect((await pkg.readMedia(collection.media[0] as AnkiPackage['collection']['media'][number], 1e6)).equals(png)).toBe(true)
      expect((await pkg.readMedia(collection.media[1] as AnkiPackage['collection']['media'][number], 1e6)).equals(mp3)).toBe(true)
    } finally {
      await pkg.close()
    }
  })

  it('round trip: another learner imports the export of an imported deck to the same words, card states and history', async () => {
    const first = await learner('trip-first')
    await imported(first, 'travel.apkg', await packageFile(travel))
    const deck = await deckNamed(first, 'Spanish::Travel')
    const exported = await exportedPackage(first, deck.id)

    clock = new Date(start.getTime() + 60_000)
    const second = await learner('trip-second')
    expect(await imported(second, 'spanish-travel.apkg', exported)).toMatchObject({ status: 'done', notes: 6, cards: 8, reviews: 9, media: 2 })
    const copy = await deckNamed(second, 'Spanish::Travel')
    expect(copy).toMatchObject({ new: deck.new, due: deck.due, total: deck.total })
    expect(await wordsOf(second, copy.id)).toEqual(await wordsOf(first, deck.id))
    const [a, b] = [await practiceOf(first), await practiceOf(second)]
    expect(b.reviews).toBe(a.reviews)
    expectSameCards(a.cards, b.cards)
    expect(a.cards.get('el perro')?.suspended).toBe(true)

    // Imported again: updated, not doubled.
    expect(await imported(second, 'spanish-travel.apkg', exported)).toMatchObject({ status: 'done', notes: 6, reviews: 0 })
    expect((await deckNamed(second, 'Spanish::Travel')).total).toBe(8)
  })

  it('round trip: a deck made by hand and practised comes back with its words and history', async () => {
    clock = start
    const maker = await learner('hand-maker')
    const deck = await expectJson<Deck>(await maker.request('POST', '/api/me/decks', { name: 'Kitchen', language: 'es' }), 201)
    const add = async (body: Record<string, unknown>) => expectJson<DeckWord>(await maker.request('POST', `/api/me/decks/${deck.id}/words`, body), 201)
    await add({ text: 'la <mesa> & co', translationEn: 'the table', reversed: true, tags: ['furniture'], notes: 'feminine' })
    await add({ text: 'el vaso', translationEn: 'the glass' })
    await add({ text: 'la taza', translationEn: 'the cup' })
    const grade = async (card: PracticeCard, value: 1 | 2 | 3 | 4, clientId = randomUUID()) => {
      const response = await maker.request('POST', '/api/me/practice/reviews', { clientId, wordId: card.wordId, grade: value, version: card.schedule.version })
      expect(response.status).toBe(201)
      return clientId
    }
    const queue = async () => (await expectJson<PracticeQueue>(await maker.request('GET', `/api/me/practice/queue?deck=${deck.id}`))).cards
    // Two cards answered at the same instant (their revlog ids must differ), then again days later.
    const [one, two, three] = await queue()
    await grade(one as PracticeCard, 3)
    await grade(two as PracticeCard, 1)
    const undone = await grade(three as PracticeCard, 4)
    expect((await maker.request('POST', '/api/me/practice/undo', { clientId: undone })).status).toBe(200)
    for (const days of [1, 3]) {
      clock = new Date(start.getTime() + days * DAY * 1000)
      for (const card of (await queue()).filter((c) => c.kind === 'due')) await grade(card, days === 1 ? 3 : 2)
    }
    const exported = await exportedPackage(maker, deck.id)
    const pkg = await opened(exported)
    const ids = pkg.collection.reviews.all().map((review) => review.id)
    await pkg.close()
    expect(new Set(ids).size).toBe(ids.length)

    const other = await learner('hand-other')
    expect(await imported(other, 'kitchen.apkg', exported)).toMatchObject({ status: 'done', notes: 3, cards: 4 })
    const copy = await deckNamed(other, 'Kitchen')
    expect(copy).toMatchObject({ language: 'es', total: 4 })
    expect(await wordsOf(other, copy.id)).toEqual(await wordsOf(maker, deck.id))
    const [a, b] = [await practiceOf(maker), await practiceOf(other)]
    expect(a.reviews).toBeGreaterThan(2)
    expect(b.reviews).toBe(a.reviews)
    expectSameCards(a.cards, b.cards)
  })

  it('is the owner\'s only: another learner and an administrator get 404, a visitor 401', async () => {
    const owner = await learner('private-owner')
    const deck = await expectJson<Deck>(await owner.request('POST', '/api/me/decks', { name: 'Private', language: 'es' }), 201)
    const other = await learner('private-other')
    for (const kind of ['csv', 'apkg']) {
      const url = `/api/me/decks/${deck.id}/export.${kind}`
      expect((await owner.request('GET', url)).status).toBe(200)
      await expectApiError(await other.request('GET', url), 404, 'not_found')
      await expectApiError(await world.admin.request('GET', url), 404, 'not_found')
      await expectApiError(await world.visitor.request('GET', url), 401, 'unauthenticated')
      await expectApiError(await owner.request('GET', `/api/me/decks/999999/export.${kind}`), 404, 'not_found')
    }
  })

  async function packageFile(spec: PackageSpec): Promise<Buffer> {
    const file = path.join(folder, `${randomUUID()}.apkg`)
    await writeAnkiPackage(file, spec)
    return readFile(file)
  }
})
