import { existsSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type AnkiCollection,
  type AnkiReview,
  type AnkiMedia,
  type NoteTypeKind,
  PackageError,
  readAnkiPackage,
} from '@/server/api/imports/anki/read'
import { type PackageSpec, custom, stock, writeAnkiPackage, zipNames } from '../helpers/anki-package'

let folder: string
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'anki-read-test-'))
})
afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

let count = 0
/** Writes `spec` to a new file in the test's folder. */
async function packageFile(spec: PackageSpec): Promise<string> {
  const file = join(folder, `p${++count}.${spec.format === 'anki21b' ? 'colpkg' : 'apkg'}`)
  await writeAnkiPackage(file, spec)
  return file
}

/** Reads the package and closes it: the collection, and the media's bytes by name. */
async function read(file: string, limits?: { expandedBytes: number }) {
  const pkg = await readAnkiPackage(file, limits)
  try {
    const media: Record<string, string> = {}
    for (const item of pkg.collection.media) media[item.name] = (await pkg.readMedia(item, 1024 * 1024)).toString()
    return { collection: pkg.collection, media }
  } finally {
    await pkg.close()
  }
}

/** The PackageError `promise` is refused with (fails when it is not one). */
async function refusal(promise: Promise<unknown>): Promise<{ code: string; what?: string }> {
  const error = await promise.then(
    () => expect.fail('expected a refusal'),
    (error: unknown) => error,
  )
  expect(error).toBeInstanceOf(PackageError)
  const { code, what } = error as PackageError
  return what === undefined ? { code } : { code, what }
}

const day = 86_400
const created = 1_700_000_000 - (1_700_000_000 % day)
/** A collection with every kind of note type, card state, deck and a review history. */
const collection = {
  created,
  decks: [
    { id: 10, name: 'Languages' },
    { id: 11, name: 'Languages::French' },
    { id: 12, name: 'Languages::French::Verbs' },
    { id: 20, name: 'Filtered Deck 1', filtered: true },
  ],
  noteTypes: [...Object.values(stock), custom],
  notes: [
    { id: 101, guid: 'basic-1', noteTypeId: stock.basic.id, fields: ['le chat', 'the <b>cat</b>'], tags: ['animals', 'fr::nouns'], modified: created + 50 },
    { id: 102, guid: 'rev-1', noteTypeId: stock.reversed.id, fields: ['le chien', 'the dog'], tags: [] },
    { id: 103, guid: 'opt-1', noteTypeId: stock.optionalReversed.id, fields: ['manger', 'to eat', 'y'] },
    { id: 104, guid: 'type-1', noteTypeId: stock.typing.id, fields: ['boire', 'to drink'] },
    { id: 105, guid: 'cloze-1', noteTypeId: stock.cloze.id, fields: ['{{c1::Paris}} is in {{c2::France}}', '<img src="paris.jpg">'] },
    { id: 106, guid: 'custom-1', noteTypeId: custom.id, fields: ['la maison', 'the house', 'Ma maison est grande. [sound:maison ñ.mp3]'] },
  ],
  cards: [
    { id: 201, noteId: 101, deckId: 11, type: 0, queue: 0, due: 7 },
    { id: 202, noteId: 102, deckId: 11, type: 2, queue: 2, due: 400, interval: 12, factor: 2500, reps: 5, lapses: 1 },
    { id: 203, noteId: 102, deckId: 11, ordinal: 1, type: 1, queue: 1, due: created + 400 * day, reps: 1 },
    { id: 204, noteId: 103, deckId: 12, type: 3, queue: 1, due: created + 401 * day, interval: 1, factor: 2300, reps: 9, lapses: 2 },
    { id: 205, noteId: 103, deckId: 12, ordinal: 1, type: 2, queue: -1, due: 410, interval: 30, factor: 2650, reps: 6 },
    { id: 206, noteId: 104, deckId: 10, type: 2, queue: -2, due: 402, interval: 3, factor: 2500, reps: 3 },
    { id: 207, noteId: 105, deckId: 10, type: 0, queue: -3, due: 8 },
    // In a filtered deck: its home deck and due are kept aside.
    { id: 208, noteId: 105, deckId: 20, ordinal: 1, type: 2, queue: 2, due: -100000, interval: 20, factor: 2500, reps: 4,
      originalDeckId: 11, originalDue: 420 },
    { id: 209, noteId: 106, deckId: 1, type: 0, queue: 0, due: 9 },
  ],
  reviews: [
    { id: 1_700_000_000_000, cardId: 202, ease: 3, interval: -600, lastInterval: 0, factor: 0, time: 6000, type: 0 },
    { id: 1_700_000_100_000, cardId: 202, ease: 3, interval: 1, lastInterval: -600, factor: 2500, time: 4000, type: 0 },
    { id: 1_700_090_000_000, cardId: 202, ease: 1, interval: -600, lastInterval: 1, factor: 2300, time: 9000, type: 1 },
    { id: 1_700_090_100_000, cardId: 202, ease: 4, interval: 12, lastInterval: -600, factor: 2500, time: 2000, type: 2 },
    { id: 1_700_100_000_000, cardId: 205, ease: 2, interval: 30, lastInterval: 10, factor: 2650, time: 5000, type: 3 },
    { id: 1_700_200_000_000, cardId: 206, ease: 0, interval: 3, lastInterval: 3, factor: 2500, time: 0, type: 4 },
    { id: 1_700_300_000_000, cardId: 206, ease: 0, interval: 0, lastInterval: 3, factor: 2500, time: 0, type: 5 },
  ],
  media: [
    { name: 'paris.jpg', data: Buffer.from('JPEG bytes of Paris') },
    { name: 'maison ñ.mp3', data: Buffer.from('MP3 bytes of a house') },
  ],
} satisfies Omit<PackageSpec, 'format'>

const kinds: Record<number, NoteTypeKind> = {
  [stock.basic.id]: 'basic',
  [stock.reversed.id]: 'reversed',
  [stock.optionalReversed.id]: 'optionalReversed',
  [stock.typing.id]: 'typing',
  [stock.cloze.id]: 'cloze',
  [custom.id]: 'basic',
}

/** What the reader must give for `collection` in `format` (its reviews unpacked: AnkiReviews.all). */
function expected(format: AnkiCollection['format']): Omit<AnkiCollection, 'media' | 'reviews'> & { reviews: AnkiReview[] } {
  return {
    format,
    created,
    // Filtered decks are left out; the cards in them are in their home decks.
    decks: [{ id: 1, name: 'Default' }, ...collection.decks.filter((deck) => !('filtered' in deck))],
    noteTypes: collection.noteTypes.map((type) => ({ id: type.id, name: type.name, kind: kinds[type.id]!, fieldNames: type.fields })),
    notes: collection.notes.map((note) => ({
      id: note.id,
      guid: note.guid,
      noteTypeId: note.noteTypeId,
      fields: note.fields,
      tags: note.tags ?? [],
      modified: note.modified ?? 1_750_000_000,
    })),
    cards: collection.cards.map((card) => ({
      id: card.id,
      noteId: card.noteId,
      deckId: card.originalDeckId ?? card.deckId,
      ordinal: card.ordinal ?? 0,
      type: card.type,
      queue: card.queue,
      due: card.originalDue ?? card.due,
      interval: card.interval ?? 0,
      factor: card.factor ?? 0,
      reps: card.reps ?? 0,
      lapses: card.lapses ?? 0,
    })),
    reviews: [...collection.reviews].sort((a, b) => a.id - b.id),
  }
}

const mediaBytes = Object.fromEntries(collection.media.map((file) => [file.name, file.data.toString()]))

describe('Anki packages in each format', () => {
  const formats: [string, PackageSpec][] = [
    ['Anki 2.0: collection.anki2, schema 11, JSON media map, deflated', { format: 'anki2', ...collection }],
    ['Anki 2.1 before 2.1.50: collection.anki21 beside a dummy collection.anki2, no meta', { format: 'anki21', ...collection }],
    ['Anki 2.1.50+ legacy export: meta version 2, collection.anki21', { format: 'anki21', legacyMeta: true, ...collection }],
    ['Anki 2.1.50+: meta version 3, zstd collection.anki21b (schema 18), zstd media list and media', { format: 'anki21b', ...collection }],
  ]
  for (const [title, spec] of formats) {
    it(title, async () => {
      const { collection: read_, media } = await read(await packageFile(spec))
      const { media: list, reviews, ...rest } = read_
      expect({ ...rest, reviews: reviews.all() }).toEqual(expected(spec.format))
      expect(media).toEqual(mediaBytes)
      expect(list.map((item) => item.entry)).toEqual(['0', '1'])
      if (spec.format === 'anki21b') expect(list.map((item) => item.size)).toEqual(collection.media.map((file) => file.data.length))
    })
  }

  it('reads a package without media, and one without a media list', async () => {
    const spec: PackageSpec = { format: 'anki21b', noteTypes: [stock.basic], notes: [collection.notes[0]!] }
    expect((await read(await packageFile(spec))).collection.media).toEqual([])
    expect((await read(await packageFile({ ...spec, format: 'anki2' }))).collection.notes).toHaveLength(1)
  })

  it('keeps the stock kind Anki 2.1.62+ records, whatever the names and templates say', async () => {
    const renamed = (originalStockKind: number, fields: string[], count: number) => ({
      id: 1800000000000 + originalStockKind,
      name: `Grundlegend ${originalStockKind}`,
      originalStockKind,
      fields,
      templates: Array.from({ length: count }, (_, i) => ({ name: `Karte ${i + 1}`, qfmt: `{{${fields[i]}}}`, afmt: '{{FrontSide}}' })),
    })
    const noteTypes = [
      renamed(1, ['Vorderseite', 'Rückseite'], 1),
      renamed(2, ['Vorderseite', 'Rückseite'], 2),
      // Neither "Add Reverse" nor a conditional second card: only the stock kind tells.
      renamed(3, ['Vorderseite', 'Rückseite', 'Umgekehrt'], 2),
      renamed(4, ['Vorderseite', 'Rückseite'], 1),
      { ...renamed(5, ['Text', 'Extra'], 1), cloze: true },
      { ...renamed(6, ['Occlusion', 'Image', 'Header', 'Back Extra', 'Comments'], 1), cloze: true },
      // A stock kind its templates no longer fit (a basic type given a second card): the templates tell.
      { ...renamed(1, ['Front', 'Back'], 2), id: 1800000000011 },
      // No stock kind: a custom type with three cards.
      { id: 1800000000012, name: 'Three ways', fields: ['A', 'B', 'C'], templates: renamed(0, ['A', 'B', 'C'], 3).templates },
    ]
    const want = ['basic', 'reversed', 'optionalReversed', 'typing', 'cloze', 'other', 'reversed', 'other']
    for (const format of ['anki2', 'anki21b'] as const) {
      const { collection: read_ } = await read(await packageFile({ format, noteTypes }))
      expect(read_.noteTypes.map((type) => type.kind)).toEqual(want)
      expect(read_.noteTypes[5]!.fieldNames).toEqual(['Occlusion', 'Image', 'Header', 'Back Extra', 'Comments'])
    }
  })

  it('reads 200,000 reviews', async () => {
    const reviews = Array.from({ length: 200_000 }, (_, i) => ({
      id: 1_600_000_000_000 + i * 1000, cardId: 1, ease: (i % 4) + 1, interval: i % 100, lastInterval: 1,
      factor: 2500, time: 3000, type: 1,
    }))
    const cards = [{ id: 1, noteId: 101, deckId: 1, type: 2, queue: 2 }]
    const spec: PackageSpec = { format: 'anki21b', noteTypes: [stock.basic], notes: [collection.notes[0]!], cards, reviews }
    const { collection: read_ } = await read(await packageFile(spec))
    expect(read_.reviews).toHaveLength(200_000)
    expect(read_.reviews.all()[199_999]).toEqual({ ...reviews[199_999], cardId: 1 })
    expect(read_.reviews.ofCard(1)).toEqual(read_.reviews.all())
    expect(read_.reviews.ofCard(2)).toEqual([])
    // Packed outside V8's heap, they are counted as they are read: one more than allowed is refused.
    await expect(readAnkiPackage(await packageFile(spec), { reviews: 199_999 })).rejects.toMatchObject({ code: 'too_large' })
    const exactly = await readAnkiPackage(await packageFile(spec), { reviews: 200_000 })
    expect(exactly.collection.reviews).toHaveLength(200_000)
    await exactly.close()
  }, 60_000)

  it('opens a collection left in WAL mode', async () => {
    const { collection: read_ } = await read(await packageFile({ format: 'anki21b', ...collection, hostile: { wal: true } }))
    expect(read_.notes).toHaveLength(collection.notes.length)
  })
})

describe('refusals', () => {
  const small: PackageSpec = { format: 'anki21b', noteTypes: [stock.basic], notes: [collection.notes[0]!], media: collection.media }
  const tooLarge = { code: 'too_large', what: expect.any(String) as string }

  it('a file that is not a zip, an empty one, a zip without a collection: not a package', async () => {
    const text = join(folder, 'notes.txt')
    await writeFile(text, 'front,back\nle chat,the cat\n')
    expect(await refusal(readAnkiPackage(text))).toEqual({ code: 'not_a_package' })
    const empty = join(folder, 'empty.apkg')
    await writeFile(empty, '')
    expect(await refusal(readAnkiPackage(empty))).toEqual({ code: 'not_a_package' })
    const missing = await packageFile({ format: 'anki2', hostile: { omitCollection: true } })
    expect(await refusal(readAnkiPackage(missing))).toEqual({ code: 'not_a_package' })
  })

  it('a cut-off zip, or meta naming a collection the package lacks: damaged', async () => {
    const whole = await readFile(await packageFile(small))
    const cut = join(folder, 'cut.colpkg')
    await writeFile(cut, whole.subarray(0, whole.length - 100))
    expect(await refusal(readAnkiPackage(cut))).toEqual({ code: 'damaged', what: 'the zip file is incomplete' })
    const file = await packageFile({ ...small, hostile: { omitCollection: true } })
    expect(await refusal(readAnkiPackage(file))).toEqual({ code: 'damaged', what: 'the collection is missing' })
  })

  it('meta of an unknown version, a collection of a newer schema: a newer Anki', async () => {
    for (const metaVersion of [99, 0, 4]) {
      const file = await packageFile({ ...small, hostile: { metaVersion } })
      expect(await refusal(readAnkiPackage(file))).toEqual({ code: 'newer_anki' })
    }
    for (const format of ['anki2', 'anki21b'] as const) {
      const file = await packageFile({ ...small, format, hostile: { colVersion: 99 } })
      expect(await refusal(readAnkiPackage(file))).toEqual({ code: 'newer_anki' })
    }
  })

  it('a collection that is not SQLite, or lacks tables, or hides a view behind a table name: damaged', async () => {
    for (const format of ['anki2', 'anki21b'] as const) {
      const file = await packageFile({ ...small, format, hostile: { collectionBytes: Buffer.from('SQLite format 2\0'.repeat(64)) } })
      expect(await refusal(readAnkiPackage(file))).toEqual({ code: 'damaged', what: 'the collection is not a database' })
    }
    const made = async (sql: string) => {
      const path = join(folder, `db${++count}.sqlite`)
      const db = new DatabaseSync(path)
      db.exec(sql)
      db.close()
      return readFile(path)
    }
    const onlyCol = await made('create table col (id integer primary key, crt integer, ver integer, models text, decks text)')
    let file = await packageFile({ ...small, hostile: { collectionBytes: onlyCol } })
    expect(await refusal(readAnkiPackage(file))).toEqual({ code: 'damaged', what: 'the collection has no notes table' })
    const view = await made(`create table col (crt, ver, models, decks); insert into col values (0, 11, '{}', '{}');
      create table cards (x); create table revlog (x); create view notes as select 1 as id`)
    file = await packageFile({ ...small, format: 'anki2', hostile: { collectionBytes: view } })
    expect(await refusal(readAnkiPackage(file))).toEqual({ code: 'damaged', what: "the collection's notes table is not a plain table" })
    const garbage = Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4080, 0xab)])
    file = await packageFile({ ...small, hostile: { collectionBytes: garbage } })
    expect((await refusal(readAnkiPackage(file))).code).toBe('damaged')
  })

  it('an entry declaring a wrong size: damaged', async () => {
    for (const [format, entry, size] of [
      ['anki21b', 'collection.anki21b', 10],
      ['anki2', 'collection.anki2', 10],
      ['anki2', 'collection.anki2', 10_000_000],
      ['anki2', '0', 1],
    ] as const) {
      const file = await packageFile({ ...small, format, hostile: { declaredSize: { entry, size } } })
      const error = await (async () => {
        const pkg = await readAnkiPackage(file)
        for (const media of pkg.collection.media) await pkg.readMedia(media, 1024)
        await pkg.close()
      })().then(() => null, (error: unknown) => error)
      expect(error, `${format} ${entry} declaring ${size}`).toBeInstanceOf(PackageError)
      expect((error as PackageError).code).toBe('damaged')
    }
  })

  it('a zip bomb: too large, from the declared sizes, before anything is inflated', async () => {
    const file = await packageFile({ ...small, format: 'anki2', hostile: { zipBomb: { name: 'bomb', bytes: 8 * 1024 * 1024 } } })
    expect(await refusal(readAnkiPackage(file, { expandedBytes: 4 * 1024 * 1024 }))).toEqual(tooLarge)
    expect((await read(file)).collection.notes).toHaveLength(1)
  })

  it('a zstd bomb in the collection, the media list or a media file: too large', async () => {
    const limits = { expandedBytes: 4 * 1024 * 1024 }
    let file = await packageFile({ ...small, hostile: { zstdBomb: { part: 'collection', bytes: 64 * 1024 * 1024 } } })
    expect(await refusal(readAnkiPackage(file, limits))).toEqual(tooLarge)
    // The media list is held in memory: at most 64 MiB, whatever the budget.
    file = await packageFile({ ...small, hostile: { zstdBomb: { part: 'media list', bytes: 65 * 1024 * 1024 } } })
    expect(await refusal(readAnkiPackage(file))).toEqual(tooLarge)
    file = await packageFile({ ...small, hostile: { zstdBomb: { part: 'media', bytes: 3 * 1024 ** 3 } } })
    const pkg = await readAnkiPackage(file, limits)
    try {
      const [bomb, other] = pkg.collection.media as [AnkiMedia, AnkiMedia]
      // Past the caller's maximum, then past what the package may still expand to (not 3 GiB).
      expect(await refusal(pkg.readMedia(bomb, 1024 * 1024))).toEqual(tooLarge)
      expect(await refusal(pkg.readMedia(bomb, 1024 ** 4))).toEqual(tooLarge)
      // The bytes counted before stopping leave less than a chunk; a small file still fits.
      expect((await pkg.readMedia(other, 1024 ** 4)).toString()).toBe('MP3 bytes of a house')
    } finally {
      await pkg.close()
    }
  })

  it('the expanded budget counts the collection itself', async () => {
    const file = await packageFile({ ...collection, format: 'anki2' })
    expect(await refusal(readAnkiPackage(file, { expandedBytes: 10_000 }))).toEqual(tooLarge)
  })

  it('a media file past the caller\'s maximum, or not the size or SHA-1 the list declares', async () => {
    const pkg = await readAnkiPackage(await packageFile(small))
    expect(await refusal(pkg.readMedia(pkg.collection.media[0]!, 5))).toEqual(tooLarge)
    await pkg.close()
    await expect(pkg.readMedia(pkg.collection.media[0]!, 1024)).rejects.toThrow('closed')
    for (const mediaLie of ['size', 'sha1'] as const) {
      const lying = await readAnkiPackage(await packageFile({ ...small, hostile: { mediaLie } }))
      expect((await refusal(lying.readMedia(lying.collection.media[0]!, 1024))).code).toBe('damaged')
      await lying.close()
    }
  })

  it('entries named ../evil, /etc/passwd or a\\b are ignored, never written anywhere', async () => {
    const names = ['../evil', '../../evil', '/etc/passwd', 'a\\..\\..\\evil', 'x/../../evil']
    const file = await packageFile({ ...small, hostile: { extraEntries: names.map((name) => ({ name, data: Buffer.from('evil') })) } })
    expect(zipNames(await readFile(file))).toEqual(expect.arrayContaining(names))
    const { collection: read_, media } = await withTempDir(async (temp) => {
      const result = await read(file)
      expect(await readdir(temp)).toEqual([])
      return result
    })
    expect(read_.notes).toHaveLength(1)
    expect(Object.keys(media)).toEqual(['paris.jpg', 'maison ñ.mp3'])
    for (const place of [folder, join(folder, '..'), process.cwd(), join(process.cwd(), '..')])
      expect(existsSync(join(place, 'evil')), place).toBe(false)
  })

  it('two entries of one known name: damaged', async () => {
    for (const name of ['meta', 'collection.anki21b', 'media', '0']) {
      const file = await packageFile({ ...small, hostile: { extraEntries: [{ name, data: Buffer.from('other') }] } })
      expect(await refusal(readAnkiPackage(file))).toEqual({ code: 'damaged', what: `two parts are named ${name}` })
    }
  })

  it('a media list naming unsafe files, missing entries or not a list: damaged', async () => {
    const cases: [PackageSpec['format'], string, string][] = [
      ['anki2', '{"0": "../paris.jpg", "1": "x.mp3"}', 'a media file has an unsafe name'],
      ['anki2', '{"0": "paris.jpg", "1": "x.mp3", "7": "y.mp3"}', 'media file 7 is missing'],
      ['anki2', '["paris.jpg"]', 'the media list is unreadable'],
      ['anki21b', '\xff\xff\xff', 'the media list is unreadable'],
    ]
    for (const [format, list, what] of cases) {
      const file = await packageFile({ ...small, format, hostile: { mediaList: Buffer.from(list, 'latin1') } })
      expect(await refusal(readAnkiPackage(file))).toEqual({ code: 'damaged', what })
    }
  })

  it('removes its temp folder, whether the collection reads or not', async () => {
    const bomb = await packageFile({ ...small, hostile: { zstdBomb: { part: 'collection', bytes: 8 * 1024 * 1024 } } })
    const notSqlite = await packageFile({ ...small, hostile: { collectionBytes: Buffer.alloc(8192) } })
    const fine = await packageFile(small)
    await withTempDir(async (temp) => {
      await read(fine)
      await refusal(readAnkiPackage(notSqlite))
      await refusal(readAnkiPackage(bomb, { expandedBytes: 1024 * 1024 }))
      expect(await readdir(temp)).toEqual([])
    })
  })
})

/** Runs `run` with os.tmpdir() in a folder of its own (TMPDIR is this worker's). */
async function withTempDir<T>(run: (temp: string) => Promise<T>): Promise<T> {
  const temp = await mkdtemp(join(folder, 'tmp-'))
  const saved = process.env.TMPDIR
  process.env.TMPDIR = temp
  try {
    expect(tmpdir()).toBe(temp)
    return await run(temp)
  } finally {
    if (saved === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = saved
  }
}
