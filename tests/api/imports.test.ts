import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Deck, DeckList, DeckWordPage } from '@/shared/decks'
import type { ImportJob } from '@/shared/imports'
import type { PracticeQueue } from '@/shared/practice'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { writeLargePackage } from '../helpers/anki-large-package'
import { type PackageSpec, stock, writeAnkiPackage } from '../helpers/anki-package'
import { startAppServer } from '../helpers/app-server'
import type { Client } from '../helpers/auth-client'
import { databaseTargets } from '../helpers/database'
import { expectApiError, expectJson } from '../helpers/server'

/*
 * Imports over HTTP (docs/product.md §12): Anki packages in each format with their review history
 * and media, imported again without doubles; CSV into a deck; refusals as failed jobs with nothing
 * stored; privacy of imports and media.
 */

const DAY = 86_400
/** The collection's creation: 2026-01-01 00:00 UTC. */
const created = Date.UTC(2026, 0, 1) / 1000
const now = new Date('2026-05-10T09:00:00Z')
const daysSinceCreated = Math.floor((now.getTime() / 1000 - created) / DAY)

const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b3a1f40000000049454e44ae426082', 'hex')

/** A package of two decks (one nested): basic, reversed and cloze notes, a suspended card, a review history and an image. */
function spanish(format: PackageSpec['format']): PackageSpec {
  return {
    format,
    created,
    decks: [
      { id: 1, name: 'Default' },
      { id: 100, name: 'Spanish' },
      { id: 101, name: 'Spanish::Verbs' },
    ],
    noteTypes: [stock.basic, stock.reversed, stock.cloze],
    notes: [
      { id: 1, guid: 'g-casa', noteTypeId: stock.basic.id, fields: ['la <b>casa</b><img src="house.png">', 'the house'], tags: ['home'] },
      { id: 2, guid: 'g-comer', noteTypeId: stock.reversed.id, fields: ['comer', 'to eat<script>alert(1)</script>'] },
      { id: 3, guid: 'g-cloze', noteTypeId: stock.cloze.id, fields: ['Yo {{c1::hablo}} {{c2::español::language}}', ''] },
      { id: 4, guid: 'g-sus', noteTypeId: stock.basic.id, fields: ['el perro', 'the dog'] },
    ],
    cards: [
      // Learnt in Anki: reviewed three times, due in 3 days.
      { id: 10, noteId: 1, deckId: 100, type: 2, queue: 2, due: daysSinceCreated + 3, interval: 10, factor: 2500, reps: 3, lapses: 0 },
      { id: 20, noteId: 2, deckId: 101, ordinal: 0, type: 0, queue: 0, due: 1 },
      { id: 21, noteId: 2, deckId: 101, ordinal: 1, type: 0, queue: 0, due: 2 },
      { id: 30, noteId: 3, deckId: 100, ordinal: 0, type: 0, queue: 0, due: 3 },
      { id: 31, noteId: 3, deckId: 100, ordinal: 1, type: 0, queue: 0, due: 4 },
      { id: 40, noteId: 4, deckId: 100, type: 2, queue: -1, due: daysSinceCreated - 1, interval: 5, factor: 2500, reps: 2, lapses: 0 },
    ],
    reviews: [
      { id: (created + 10 * DAY) * 1000, cardId: 10, ease: 3, interval: -600, lastInterval: 0, factor: 0, time: 4000, type: 0 },
      { id: (created + 10 * DAY + 600) * 1000, cardId: 10, ease: 3, interval: 1, lastInterval: -600, factor: 2500, time: 3000, type: 0 },
      { id: (created + 11 * DAY) * 1000, cardId: 10, ease: 3, interval: 10, lastInterval: 1, factor: 2500, time: 3000, type: 1 },
      { id: (created + 12 * DAY) * 1000, cardId: 40, ease: 3, interval: 5, lastInterval: 1, factor: 2500, time: 3000, type: 1 },
      // A manual reschedule: not an answer.
      { id: (created + 13 * DAY) * 1000, cardId: 40, ease: 0, interval: 5, lastInterval: 5, factor: 2500, time: 0, type: 4 },
    ],
    media: [{ name: 'house.png', data: png }],
  }
}

async function upload(client: Client, name: string, bytes: Buffer, fields: Record<string, string> = {}): Promise<Response> {
  const form = new FormData()
  for (const [key, value] of Object.entries(fields)) form.append(key, value)
  form.append('file', new Blob([new Uint8Array(bytes)]), name)
  return client.request('POST', '/api/me/imports', undefined, { body: form, headers: { Origin: client.origin, Cookie: client.cookieHeader() } })
}

/** Uploads and waits for the job's end. */
async function imported(client: Client, name: string, bytes: Buffer, fields: Record<string, string> = {}): Promise<ImportJob> {
  const { id } = await expectJson<{ id: string }>(await upload(client, name, bytes, fields), 202)
  for (let i = 0; i < 300; i++) {
    const job = await expectJson<ImportJob>(await client.request('GET', `/api/me/imports/${id}`))
    if (job.status === 'done' || job.status === 'failed') return job
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`import ${id} did not end`)
}

describe.each(databaseTargets())('imports on %s', (target) => {
  let world: AdminWorld
  let folder: string

  beforeAll(async () => {
    world = await startAdminWorld(target, 'imports', {}, (options) => startAppServer({ ...options, now: () => now }))
    folder = await mkdtemp(path.join(os.tmpdir(), 'lingua-imports-test-'))
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

  const packageOf = async (spec: PackageSpec) => {
    const file = path.join(folder, `${spec.format}-${Math.random()}.apkg`)
    await writeAnkiPackage(file, spec)
    return readFile(file)
  }

  it.each(['anki2', 'anki21', 'anki21b'] as const)('imports a %s package with its decks, cards, review history and media', async (format) => {
    const client = await learner(`anki-${format}`)
    const job = await imported(client, 'spanish.apkg', await packageOf(spanish(format)))
    expect(job).toMatchObject({ status: 'done', kind: 'anki', fileName: 'spanish.apkg', notes: 4, cards: 6, reviews: 4, media: 1 })
    expect(job.decks.map((deck) => [deck.name, deck.cards]).sort()).toEqual([['Spanish', 4], ['Spanish::Verbs', 2]])

    const list = await expectJson<DeckList>(await client.request('GET', '/api/me/decks'))
    const spanishDeck = list.decks.find((deck) => deck.name === 'Spanish') as Deck
    // New: the two cloze cards; due today: none (the learnt one is due in 3 days, the suspended one is suspended).
    expect(spanishDeck).toMatchObject({ language: 'es', total: 4, new: 2, due: 0 })
    const words = await expectJson<DeckWordPage>(await client.request('GET', `/api/me/decks/${spanishDeck.id}/words?sort=text`))
    expect(words.items.map((word) => [word.text, word.translationEn, word.kind])).toEqual([
      ['el perro', 'the dog', 'basic'],
      ['la casa', 'the house', 'basic'],
      ['Yo [...] español', 'Yo hablo español', 'cloze'].map((v) => v.replace('[...]', '[…]')),
    ])
    const casa = words.items.find((word) => word.text === 'la casa')
    expect(casa?.due).toBe(new Date(Date.UTC(2026, 4, 13)).toISOString())
    expect(casa?.tags).toEqual(['home'])

    // The daily queue: new cards of the decks (the reversed note's two, the cloze's two), none suspended.
    const queue = await expectJson<PracticeQueue>(await client.request('GET', '/api/me/practice/queue'))
    expect(queue.cards.map((card) => card.text).sort()).toEqual(['Yo [hablo] [language]', 'Yo […] español', 'comer', 'to eat'].map((t) => t.replace('Yo [hablo] [language]', 'Yo hablo [language]')).sort())
    expect(JSON.stringify(queue)).not.toContain('<script')
    // Each card carries its sides as cleaned HTML for the practice page to draw.
    expect(queue.cards.find((card) => card.text === 'comer')?.html).toEqual({ front: 'comer', back: 'to eat' })

    // Imported again: no doubles.
    const again = await imported(client, 'spanish.apkg', await packageOf(spanish(format)))
    expect(again).toMatchObject({ status: 'done', notes: 4, reviews: 0 })
    expect((await expectJson<DeckList>(await client.request('GET', '/api/me/decks'))).decks.map((deck) => deck.total).sort()).toEqual([2, 4])
  })

  it('serves imported media to their owner only, typed by their bytes', async () => {
    const owner = await learner('media-owner')
    await imported(owner, 'spanish.apkg', await packageOf(spanish('anki21b')))
    const hash = createHash('sha256').update(png).digest('base64url')
    const served = await owner.request('GET', `/api/me/media/${hash}`)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true)
    const other = await learner('media-other')
    expect((await other.request('GET', `/api/me/media/${hash}`)).status).toBe(404)
    expect((await world.visitor.request('GET', `/api/me/media/${hash}`)).status).toBe(401)
  })

  it('imports a CSV file into a chosen deck, and refuses one without a deck', async () => {
    const client = await learner('csv-learner')
    const deck = await expectJson<Deck>(await client.request('POST', '/api/me/decks', { name: 'From a sheet', language: 'es' }), 201)
    const csv = 'language,text,translation_en,translation_ru,example,part_of_speech\nes,hola,hello,привет,,interjection\nes,adiós,goodbye,пока,,\nes,,missing,,,\n'
    const job = await imported(client, 'words.csv', Buffer.from(csv), { deckId: String(deck.id) })
    expect(job).toMatchObject({ status: 'done', kind: 'csv', notes: 2, cards: 2 })
    expect(job.skipped).toHaveLength(1)
    const words = await expectJson<DeckWordPage>(await client.request('GET', `/api/me/decks/${deck.id}/words`))
    expect(words.items.map((word) => [word.text, word.translationEn, word.translationRu])).toEqual([
      ['hola', 'hello', 'привет'],
      ['adiós', 'goodbye', 'пока'],
    ])
    expect((await imported(client, 'words.csv', Buffer.from(csv), { deckId: String(deck.id) })).status).toBe('done')
    expect((await expectJson<DeckWordPage>(await client.request('GET', `/api/me/decks/${deck.id}/words`))).total).toBe(2)
    await expectApiError(await upload(client, 'words.csv', Buffer.from(csv)), 400, 'validation_failed')
    // Someone else's deck: the import fails, nothing stored.
    const other = await learner('csv-other')
    expect(await imported(other, 'words.csv', Buffer.from(csv), { deckId: String(deck.id) })).toMatchObject({ status: 'failed' })
  })

  it('checks a CSV file against a deck first, writing nothing, as admins do; the import then matches the words typed in', async () => {
    const client = await learner('csv-check')
    const deck = await expectJson<Deck>(await client.request('POST', '/api/me/decks', { name: 'Checked', language: 'es' }), 201)
    await expectJson(await client.request('POST', `/api/me/decks/${deck.id}/words`, { text: 'Hola', translationEn: 'hi', translationRu: 'привет' }), 201)
    await expectJson(await client.request('POST', `/api/me/decks/${deck.id}/words`, { text: 'adiós', translationEn: 'goodbye', translationRu: 'пока' }), 201)
    const csv = 'language,text,translation_en,translation_ru,example,part_of_speech\nes,hola,hello,привет,,\nes,adiós,goodbye,пока,,\nes,gracias,thanks,спасибо,,\nes,,x,,,\n'
    const check = (body: string, id = deck.id, who = client) =>
      who.request('POST', `/api/me/decks/${id}/words/csv`, undefined, { body, headers: { Origin: who.origin, Cookie: who.cookieHeader(), 'Content-Type': 'text/csv' } })
    const preview = await expectJson<{ dryRun: boolean; rows: number; created: number; updated: number; unchanged: number; refused: { line: number }[] }>(await check(csv))
    expect(preview).toMatchObject({ dryRun: true, rows: 4, created: 1, updated: 1, unchanged: 1 })
    expect(preview.refused.map((row) => row.line)).toEqual([5])
    expect((await expectJson<DeckWordPage>(await client.request('GET', `/api/me/decks/${deck.id}/words`))).total).toBe(2)
    await expectApiError(await check(csv, deck.id, await learner('csv-check-other')), 404, 'not_found')

    expect(await imported(client, 'words.csv', Buffer.from(csv), { deckId: String(deck.id) })).toMatchObject({ status: 'done', notes: 3 })
    const words = await expectJson<DeckWordPage>(await client.request('GET', `/api/me/decks/${deck.id}/words?sort=text`))
    expect(words.items.map((word) => [word.text, word.translationEn])).toEqual([
      ['adiós', 'goodbye'],
      ['gracias', 'thanks'],
      ['hola', 'hello'],
    ])
  })

  it('takes its own Anki export back into the same account without doubles: no second deck, no review twice', async () => {
    const client = await learner('apkg-again')
    const deck = await expectJson<Deck>(await client.request('POST', '/api/me/decks', { name: 'Mine', language: 'es' }), 201)
    for (const text of ['uno', 'dos']) await expectJson(await client.request('POST', `/api/me/decks/${deck.id}/words`, { text, translationEn: text }), 201)
    const [card] = (await expectJson<PracticeQueue>(await client.request('GET', `/api/me/practice/queue?deck=${deck.id}`))).cards
    const graded = await client.request('POST', '/api/me/practice/reviews', { clientId: crypto.randomUUID(), wordId: card?.wordId, grade: 3, version: card?.schedule.version })
    expect(graded.status).toBe(201)
    const apkg = Buffer.from(await (await client.request('GET', `/api/me/decks/${deck.id}/export.apkg`)).arrayBuffer())
    expect(await imported(client, 'mine.apkg', apkg)).toMatchObject({ status: 'done', notes: 2, reviews: 0 })
    const after = await expectJson<DeckList>(await client.request('GET', '/api/me/decks'))
    expect(after.decks.map((one) => [one.name, one.total])).toEqual([['Mine', 2]])
  })

  it('keeps the first of two notes that share a guid and says why the other was skipped', async () => {
    const client = await learner('same-guid')
    const spec = spanish('anki21')
    const twice = { ...spec, notes: (spec.notes ?? []).map((note) => (note.guid === 'g-comer' ? { ...note, guid: 'g-casa' } : note)) }
    const job = await imported(client, 'twice.apkg', await packageOf(twice))
    expect(job).toMatchObject({ status: 'done', notes: 3 })
    expect(job.skipped).toContainEqual({ note: 'g-casa', reason: 'another note has the same guid' })
  })

  it("takes a deck's CSV export back: words, translations, tags and notes", async () => {
    const owner = await learner('csv-export-owner')
    const deck = await expectJson<Deck>(await owner.request('POST', '/api/me/decks', { name: 'Comida', language: 'es' }), 201)
    await expectJson(await owner.request('POST', `/api/me/decks/${deck.id}/words`, { text: 'el pan', translationEn: 'bread', translationRu: 'хлеб', tags: ['food', 'a1'], notes: '=1+1, "quoted"' }), 201)
    await expectJson(await owner.request('POST', `/api/me/decks/${deck.id}/words`, { text: 'el agua', translationEn: 'water', partOfSpeech: 'noun' }), 201)
    const csv = Buffer.from(await (await owner.request('GET', `/api/me/decks/${deck.id}/export.csv`)).arrayBuffer())
    const other = await learner('csv-export-other')
    const into = await expectJson<Deck>(await other.request('POST', '/api/me/decks', { name: 'Mine', language: 'es' }), 201)
    expect(await imported(other, 'comida.csv', csv, { deckId: String(into.id) })).toMatchObject({ status: 'done', notes: 2, skipped: [] })
    const words = await expectJson<DeckWordPage>(await other.request('GET', `/api/me/decks/${into.id}/words`))
    expect(words.items.map((word) => [word.text, word.translationEn, word.translationRu, word.partOfSpeech, word.tags, word.notes])).toEqual([
      ['el pan', 'bread', 'хлеб', null, ['food', 'a1'], '=1+1, "quoted"'],
      ['el agua', 'water', 'water', 'noun', [], null],
    ])
  })

  it.runIf(target === 'postgres')('refuses a file over 300 MB with 413 while it streams in, keeping nothing of it', async () => {
    const client = await learner('too-large')
    const response = await upload(client, 'huge.apkg', Buffer.alloc(300 * 1024 * 1024 + 1))
    await expectApiError(response, 413, 'payload_too_large')
    const left = `select count(*)::int as n from import_job j join "user" u on u.id = j.user_id where u.email = $1`
    expect(await world.server.database?.query(left, [`too-large-${target}@example.com`])).toEqual([{ n: 0 }])
    expect(await world.server.database?.query('select count(*)::int as n from import_upload')).toEqual([{ n: 0 }])
  }, 120_000)

  it.runIf(target === 'postgres')('refuses an import past 500 MB of media a learner, storing nothing', async () => {
    const client = await learner('media-full')
    // A file of theirs counted at 500 MB less 10 bytes: the package's picture does not fit.
    await world.server.database?.query(
      `insert into learner_media (user_id, hash, type, size, name, data) select id, 'x', 'image/png', $2, 'big.png', '\\x00' from "user" where email = $1`,
      [`media-full-${target}@example.com`, 500 * 1024 * 1024 - 10],
    )
    expect(await imported(client, 'spanish.apkg', await packageOf(spanish('anki21b')))).toMatchObject({ status: 'failed', error: { code: 'media_quota' } })
    expect((await expectJson<DeckList>(await client.request('GET', '/api/me/decks'))).decks).toEqual([])
  })

  it.runIf(target === 'postgres')('refuses an import past 50,000 cards a learner, storing nothing', async () => {
    const client = await learner('quota')
    const deck = await expectJson<Deck>(await client.request('POST', '/api/me/decks', { name: 'Almost full', language: 'es' }), 201)
    // 49,999 cards written straight into the deck: one more fits, two do not.
    await world.server.database?.query(
      `insert into word (deck_id, language, text, translation_en, translation_ru) select $1, 'es', 'w' || n, 't', 't' from generate_series(1, 49999) as n`,
      [deck.id],
    )
    const job = await imported(client, 'spanish.apkg', await packageOf(spanish('anki21b')))
    expect(job).toMatchObject({ status: 'failed', error: { code: 'cards_full' } })
    const after = await expectJson<DeckList>(await client.request('GET', '/api/me/decks'))
    expect(after.decks.map((d) => [d.name, d.total])).toEqual([['Almost full', 49_999]])
    // The media the refused import read are gone again.
    const media = `select count(*)::int as n from learner_media m join "user" u on u.id = m.user_id where u.email = $1`
    expect(await world.server.database?.query(media, [`quota-${target}@example.com`])).toEqual([{ n: 0 }])
    await expectJson(await client.request('POST', `/api/me/decks/${deck.id}/words`, { text: 'last', translationEn: 'last' }), 201)
    await expectApiError(await client.request('POST', `/api/me/decks/${deck.id}/words`, { text: 'one more', translationEn: 'x' }), 409, 'cards_full')
  })

  it('refuses what is not a package, a newer Anki and a damaged package, storing nothing', async () => {
    const client = await learner('refused')
    const notZip = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100)])
    const broken = await imported(client, 'broken.apkg', notZip)
    expect(broken.status).toBe('failed')
    expect(['damaged', 'not_a_package']).toContain(broken.error?.code)
    const newer = await packageOf({ ...spanish('anki21b'), hostile: { metaVersion: 99 } })
    expect(await imported(client, 'newer.apkg', newer)).toMatchObject({ status: 'failed', error: { code: 'newer_anki' } })
    const notSqlite = await packageOf({ ...spanish('anki2'), hostile: { collectionBytes: Buffer.from('not a database at all, no') } })
    expect(await imported(client, 'damaged.apkg', notSqlite)).toMatchObject({ status: 'failed', error: { code: 'damaged' } })
    const bomb = await packageOf({ ...spanish('anki21b'), hostile: { zstdBomb: { part: 'collection', bytes: 3 * 1024 ** 3 } } })
    expect(await imported(client, 'bomb.apkg', bomb)).toMatchObject({ status: 'failed', error: { code: 'too_large' } })
    expect((await expectJson<DeckList>(await client.request('GET', '/api/me/decks'))).decks).toEqual([])
    await expectApiError(await client.request('GET', '/api/me/imports/00000000-0000-0000-0000-000000000000'), 404, 'not_found')
    const [latest] = await expectJson<ImportJob[]>(await client.request('GET', '/api/me/imports'))
    expect(latest?.fileName).toBe('bomb.apkg')
    const other = await learner('refused-other')
    await expectApiError(await other.request('GET', `/api/me/imports/${latest?.id}`), 404, 'not_found')
  })
})

describe('the process that plans an Anki import', () => {
  it('refuses a package whose history needs more than its heap (IMPORT_PLANNER_HEAP_MB) as too large, storing nothing, and the server goes on', async () => {
    const world = await startAdminWorld('pglite', 'imports-heap', { IMPORT_PLANNER_HEAP_MB: '16' })
    const folder = await mkdtemp(path.join(os.tmpdir(), 'lingua-imports-heap-'))
    try {
      const file = path.join(folder, 'big.apkg')
      // About 40 MB of collection once read: more than the 16 MB the planner may hold.
      await writeLargePackage(file, { notes: 20_000, reviews: 200_000, images: 3 })
      const job = await imported(world.learner, 'big.apkg', await readFile(file))
      expect(job).toMatchObject({ status: 'failed', error: { code: 'too_large' } })
      expect(await expectJson<DeckList>(await world.learner.request('GET', '/api/me/decks'))).toMatchObject({ decks: [] })
      // A package that fits is still imported.
      const small = path.join(folder, 'small.apkg')
      await writeLargePackage(small, { notes: 20, reviews: 100 })
      expect(await imported(world.learner, 'small.apkg', await readFile(small))).toMatchObject({ status: 'done', notes: 20 })
    } finally {
      await world.stop()
      await rm(folder, { recursive: true, force: true })
    }
  })
})
