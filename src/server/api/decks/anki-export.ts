import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import type { DatabaseSync } from 'node:sqlite'
import { and, asc, eq, isNull, like, min, sql } from 'drizzle-orm'
import yazl from 'yazl'
import { escapeText, fieldText } from '@/shared/card-field'
import type { NoteKind } from '@/shared/decks'
import { dayIn } from '@/shared/practice-days'
import type { Db } from '@/server/db/client'
import { reviewLog, word } from '@/server/db/schema'
import { startOfDay, toAnkiCard, toAnkiReview } from '@/server/api/imports/anki/replay'
import { type Settings, readSettings } from '@/server/api/practice/settings'
import { ROLLOVER_HOUR, SCHEMA_11, collectionConfJson, deckJson, deckOptionsJson, noteTypeId, noteTypeJson, stockFieldCount } from './anki-schema'
import { type ExportedDeck, type ExportedNote, exportFileName, exportedDeck, exportedNotes } from './export-data'
import { type PackageMedia, mediaStream, packageMedia, withPackageMedia } from './export-media'

/**
 * A deck as an Anki package (PRODUCT §12), as Anki 2.1's legacy export writes one, which every Anki
 * version imports: a zip of `collection.anki2` (schema 11), the media files as entries `0`, `1`…
 * and `media`, their names as JSON. The collection is built in a private temp folder (removed when
 * the zip has been sent, or the answer abandoned); the zip is streamed, each media file read from
 * the database when its turn comes.
 *
 * - One deck (its name, `Parent::Child` kept; its Anki id when it came from Anki); the stock note
 *   types its notes need, by kind, with fields "Notes"… after the stock ones when a note has more.
 * - Notes keep their guid (a package imported again updates them) and Anki id; an imported note
 *   its cleaned fields (its front or back as edited in Lingua since, if edited), media by name; a
 *   note written in Lingua its front and back, and its notes, as HTML.
 * - Cards' schedules and each answer of the review history (not undone) are replay.ts's
 *   toAnkiCard and toAnkiReview: the inverse of the import's replay. A card keeps the Anki id its
 *   imported reviews name (`anki:{card}:{revlog}`), so that its own history imported again is not
 *   doubled; revlog ids are times in ms, made unique by adding 1 ms to one taken.
 */

const REVIEW_BATCH = 1000

/**
 * Ids, each unique: the one a row is known by (its Anki id) unless another took it first, else a
 * fresh one as Anki makes them (epoch ms), bumped by 1 past any taken or known.
 */
function idAllocator(known: Iterable<number>) {
  const kept = new Set(known)
  const used = new Set<number>()
  return {
    known(id: number | null | undefined): number | undefined {
      if (id === null || id === undefined || used.has(id)) return undefined
      used.add(id)
      return id
    },
    fresh(wanted: number): number {
      let id = wanted
      while (used.has(id) || kept.has(id)) id++
      used.add(id)
      return id
    },
  }
}

const html = (text: string) => escapeText(text).replace(/\r?\n/g, '<br>')
/** A side's text as the import makes it from a field (anki-import.ts): what tells an edited field. */
const plain = (field: string) => fieldText(field).replace(/\s+/g, ' ').trim().slice(0, 1000)

/** The Anki note type (by kind) and fields of a note. */
function noteShape(note: ExportedNote, media: ReadonlyMap<string, PackageMedia>): { kind: NoteKind; fields: string[] } {
  const first = note.cards.find((card) => card.ordinal === 0)
  if (note.fields) {
    const fields = note.fields.map((field) => withPackageMedia(field, media))
    while (fields.length < stockFieldCount(note.kind)) fields.push('')
    // Front and back changed in Lingua since the import: the words as they are now.
    if (note.kind !== 'cloze' && first) {
      if (plain(fields[0] ?? '') !== first.text) fields[0] = html(first.text)
      if (plain(fields[1] ?? '') !== first.translationEn) fields[1] = html(first.translationEn)
    }
    return { kind: note.kind, fields }
  }
  const card = first ?? note.cards[0]
  const kind: NoteKind = note.kind === 'cloze' ? 'basic' : note.kind
  const fields = [html(card?.text ?? ''), html(card?.translationEn ?? '')]
  if (kind === 'optionalReversed') fields.push(note.cards.some((other) => other.ordinal === 1) ? 'y' : '')
  if (note.notes) fields.push(html(note.notes))
  return { kind, fields }
}

/** Anki's field checksum: the first 8 hex digits of the SHA-1 of the first field's text. */
const checksum = (text: string) => Number.parseInt(createHash('sha1').update(text).digest('hex').slice(0, 8), 16)

interface Build {
  db: Db
  userId: string
  owner: ExportedDeck
  notes: ExportedNote[]
  settings: Settings
  media: ReadonlyMap<string, PackageMedia>
  now: Date
}

/** The collection's creation (`crt`, epoch seconds): Anki's day start on the day of the deck's earliest date. */
async function collectionCreated({ db, userId, owner, notes, settings, now }: Build): Promise<number> {
  const [first] = await db
    .select({ at: min(reviewLog.review) })
    .from(reviewLog)
    .innerJoin(word, eq(word.id, reviewLog.wordId))
    .where(and(eq(word.deckId, owner.id), eq(reviewLog.userId, userId)))
  let earliest = Math.min(now.getTime(), owner.createdAt.getTime(), first?.at?.getTime() ?? Infinity)
  for (const note of notes) {
    for (const { schedule } of note.cards) {
      if (schedule) earliest = Math.min(earliest, schedule.due.getTime(), schedule.lastReview?.getTime() ?? Infinity)
    }
  }
  const start = startOfDay(settings.timeZone, dayIn(settings.timeZone, new Date(earliest)))
  return Math.floor(start.getTime() / 1000) + ROLLOVER_HOUR * 3600
}

/** The Anki card id each card's imported reviews name, where they name one. */
async function importedCardIds(db: Db, userId: string, deckId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectDistinctOn([reviewLog.wordId], { wordId: reviewLog.wordId, clientId: reviewLog.clientId })
    .from(reviewLog)
    .innerJoin(word, eq(word.id, reviewLog.wordId))
    .where(and(eq(word.deckId, deckId), eq(reviewLog.userId, userId), like(reviewLog.clientId, 'anki:%')))
    .orderBy(reviewLog.wordId, asc(reviewLog.id))
  const ids = new Map<number, number>()
  for (const row of rows) {
    const id = Number(/^anki:(\d{1,15}):/.exec(row.clientId)?.[1] ?? Number.NaN)
    if (row.wordId !== null && Number.isSafeInteger(id) && id > 0) ids.set(row.wordId, id)
  }
  return ids
}

/** Writes the collection file at `path` (schema 11: the `col` row, notes, cards, revlog). */
async function writeCollection(path: string, build: Build): Promise<void> {
  const { db, userId, owner, notes, settings, media, now } = build
  const created = await collectionCreated(build)
  const recovered = await importedCardIds(db, userId, owner.id)
  const modified = Math.floor(now.getTime() / 1000)
  const deckId = owner.ankiId ?? owner.createdAt.getTime()
  const options = { collectionCreated: created, now, timeZone: settings.timeZone, parameters: settings.fsrsParameters }

  // Loaded here, not imported: an older Node must reach the server's one-line refusal of it.
  const { DatabaseSync: Sqlite } = await import('node:sqlite')
  const sqlite = new Sqlite(path, { allowExtension: false })
  try {
    sqlite.exec(`pragma page_size = 4096; pragma journal_mode = delete; ${SCHEMA_11}`)
    sqlite.exec('begin')
    const noteIds = idAllocator(notes.flatMap((note) => (note.ankiId === null ? [] : [note.ankiId])))
    const cardIds = idAllocator(recovered.values())
    const ankiCardOf = new Map<number, number>()
    const noteTypes = new Map<number, ReturnType<typeof noteTypeJson>>()
    const addNote = sqlite.prepare('insert into notes values (?, ?, ?, ?, 0, ?, ?, ?, ?, 0, ?)')
    const addCard = sqlite.prepare('insert into cards values (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?)')
    for (const [index, note] of notes.entries()) {
      const { kind, fields } = noteShape(note, media)
      const typeId = noteTypeId(kind, fields.length)
      if (!noteTypes.has(typeId)) noteTypes.set(typeId, noteTypeJson(kind, fields.length, modified))
      const noteId = noteIds.known(note.ankiId) ?? noteIds.fresh(note.createdAt.getTime())
      const tags = note.tags.length ? ` ${note.tags.join(' ')} ` : ''
      const sortField = fieldText(fields[0] ?? '')
      addNote.run(noteId, note.guid, typeId, Math.floor(note.updatedAt.getTime() / 1000), tags, fields.join('\x1f'), sortField, checksum(sortField), '')
      for (const card of note.cards) {
        const cardId = cardIds.known(recovered.get(card.wordId)) ?? cardIds.fresh(note.createdAt.getTime() + card.ordinal)
        ankiCardOf.set(card.wordId, cardId)
        const s = toAnkiCard(card.schedule, { ...options, position: index + 1, suspended: card.schedule?.suspended ?? false })
        addCard.run(cardId, noteId, deckId, card.ordinal, modified, s.type, s.queue, s.due, s.interval, s.factor, s.reps, s.lapses, s.left, '')
      }
    }
    await writeRevlog(sqlite, build, ankiCardOf)

    const decks: Record<string, unknown> = {}
    if (deckId !== 1) decks['1'] = deckJson(1, 'Default', '', modified)
    decks[String(deckId)] = deckJson(deckId, owner.name, owner.description ? html(owner.description) : '', modified)
    const models = Object.fromEntries([...noteTypes].map(([id, type]) => [String(id), type]))
    sqlite
      .prepare('insert into col values (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, ?)')
      .run(
        created,
        now.getTime(),
        now.getTime(),
        JSON.stringify(collectionConfJson(deckId, [...noteTypes.keys()], notes.length + 1)),
        JSON.stringify(models),
        JSON.stringify(decks),
        JSON.stringify(deckOptionsJson(modified)),
        '{}',
      )
    sqlite.exec('commit')
  } finally {
    sqlite.close()
  }
}

/** Every answer (not undone) of the deck's cards, oldest first, read page by page. */
async function writeRevlog(sqlite: DatabaseSync, { db, userId, owner, settings }: Build, ankiCardOf: ReadonlyMap<number, number>): Promise<void> {
  const addReview = sqlite.prepare('insert into revlog values (?, ?, 0, ?, ?, ?, ?, ?, ?)')
  let after: { review: Date; id: number } | null = null
  let lastId = 0
  for (;;) {
    const page: { id: number; wordId: number | null; rating: number; state: number; review: Date; cardBefore: unknown; cardAfter: unknown }[] = await db
      .select({
        id: reviewLog.id,
        wordId: reviewLog.wordId,
        rating: reviewLog.rating,
        state: reviewLog.state,
        review: reviewLog.review,
        cardBefore: reviewLog.cardBefore,
        cardAfter: reviewLog.cardAfter,
      })
      .from(reviewLog)
      .innerJoin(word, eq(word.id, reviewLog.wordId))
      .where(
        and(
          eq(word.deckId, owner.id),
          eq(reviewLog.userId, userId),
          isNull(reviewLog.undoneAt),
          after ? sql`(${reviewLog.review}, ${reviewLog.id}) > (${after.review.toISOString()}::timestamptz, ${after.id})` : undefined,
        ),
      )
      .orderBy(asc(reviewLog.review), asc(reviewLog.id))
      .limit(REVIEW_BATCH)
    for (const row of page) {
      const cardId = row.wordId === null ? undefined : ankiCardOf.get(row.wordId)
      if (cardId === undefined) continue
      const entry = toAnkiReview(row, cardId, settings.fsrsParameters)
      const id = Math.max(entry.id, lastId + 1)
      lastId = id
      addReview.run(id, cardId, entry.ease, entry.interval, entry.lastInterval, entry.factor, entry.time, entry.type)
    }
    const last = page.at(-1)
    if (!last || page.length < REVIEW_BATCH) return
    after = { review: last.review, id: last.id }
  }
}

export interface DeckPackage {
  fileName: string
  /** The zip, streamed; the temp folder goes when it closes (sent, failed or abandoned). */
  body: Readable
}

/** The learner's deck as an Anki package (404 when it is not theirs). */
export async function deckPackage(db: Db, userId: string, deckId: number, now: Date): Promise<DeckPackage> {
  const owner = await exportedDeck(db, userId, deckId)
  const [notes, settings] = await Promise.all([exportedNotes(db, userId, deckId), readSettings(db, userId)])
  const media = await packageMedia(db, userId, notes.flatMap((note) => note.fields ?? []))
  const folder = await mkdtemp(join(tmpdir(), 'lingua-deck-export-'))
  const removeFolder = () => rm(folder, { recursive: true, force: true })
  try {
    const path = join(folder, 'collection.anki2')
    await writeCollection(path, { db, userId, owner, notes, settings, media, now })
    const zip = new yazl.ZipFile()
    const mtime = now
    zip.addFile(path, 'collection.anki2', { mtime })
    for (const file of media.values()) {
      zip.addReadStreamLazy(file.entry, { mtime, compress: false, size: file.size }, (done) => {
        mediaStream(db, userId, file.hash).then((stream) => done(null, stream), (error: unknown) => done(error, undefined as never))
      })
    }
    const names = Object.fromEntries([...media.values()].map((file) => [file.entry, file.name]))
    zip.addBuffer(Buffer.from(JSON.stringify(names)), 'media', { mtime })
    zip.end()
    const body = zip.outputStream as Readable
    // A media file that cannot be read ends the answer short (the status is sent).
    zip.on('error', (error: Error) => body.destroy(error))
    body.once('close', () => void removeFolder())
    return { fileName: exportFileName(owner, 'apkg'), body }
  } catch (error) {
    await removeFolder()
    throw error
  }
}
