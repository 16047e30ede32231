import { randomUUID } from 'node:crypto'
import { type SQL, and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm'
import type { z } from 'zod/mini'
import { DECKS_MAX, DECK_CARDS_MAX, type Deck, type DeckCounts, type DeckList, type DeckWord, type DeckWordPage, type NoteKind } from '@/shared/decks'
import type { DeckWordInput, DeckWordListQuery, deckInputSchema, deckPatchSchema } from '@/shared/decks-schemas'
import { endOfDay } from '@/shared/practice-days'
import type { PartOfSpeech } from '@/shared/words'
import type { Db, Tx } from '@/server/db/client'
import { deck, deckNote, practiceCard, word } from '@/server/db/schema'
import { publishEvent } from '@/server/events/bus'
import { ApiError } from '@/server/http/errors'
import { deckNotFound, learningProfile } from '@/server/api/practice/queue'
import { readSettings } from '@/server/api/practice/settings'

/**
 * A learner's own decks and their words (docs/decisions/0032-decks.md). Every function takes the
 * owner: a deck of someone else is "not found", for learners and administrators alike.
 */

export const deckWordNotFound = () => new ApiError('not_found', 'Word not found')
const decksFull = () => new ApiError('decks_full', `You have ${DECKS_MAX} decks, the most a learner may hold.`)
export const cardsFull = () => new ApiError('cards_full', `Your decks are full: at most ${DECK_CARDS_MAX.toLocaleString('en')} cards`)

type DeckRecord = typeof deck.$inferSelect

/** A card not yet answered, or imported new and not suspended. */
const isNew = sql`(${practiceCard.wordId} is null or (${practiceCard.state} = 0 and not ${practiceCard.suspended}))`
const dueBy = (end: Date) => sql`(${practiceCard.state} <> 0 and not ${practiceCard.suspended} and ${practiceCard.due} < ${end.toISOString()})`

function toDeck(row: DeckRecord, counts: DeckCounts | undefined): Deck {
  return {
    id: row.id,
    name: row.name,
    language: row.language,
    description: row.description,
    practiseDaily: row.practiseDaily,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(counts ?? { new: 0, due: 0, total: 0 }),
  }
}

/** New, due-today and all cards of the given words, in one pass over them and their cards. */
async function countCards(db: Db, userId: string, of: SQL, end: Date, groupBy: typeof word.deckId | typeof word.levelId) {
  return db
    .select({
      key: groupBy,
      new: sql<number>`count(*) filter (where ${isNew})`.mapWith(Number),
      due: sql<number>`count(*) filter (where ${dueBy(end)})`.mapWith(Number),
      total: count(),
    })
    .from(word)
    .leftJoin(practiceCard, and(eq(practiceCard.userId, userId), eq(practiceCard.wordId, word.id)))
    .where(of)
    .groupBy(groupBy)
}

/** The learner's decks with their counts, and the course words of their current level. */
export async function listDecks(db: Db, userId: string, now: Date): Promise<DeckList> {
  const [settings, profile, decks] = await Promise.all([
    readSettings(db, userId),
    learningProfile(db, userId),
    db.select().from(deck).where(eq(deck.userId, userId)).orderBy(asc(deck.name), asc(deck.id)),
  ])
  const end = endOfDay(settings.timeZone, now)
  const ids = decks.map((row) => row.id)
  const [deckCounts, courseCounts] = await Promise.all([
    ids.length ? countCards(db, userId, inArray(word.deckId, ids), end, word.deckId) : [],
    profile?.levelId
      ? countCards(db, userId, and(eq(word.levelId, profile.levelId), profile.language ? eq(word.language, profile.language) : undefined) as SQL, end, word.levelId)
      : [],
  ])
  const byDeck = new Map(deckCounts.map(({ key, ...counts }) => [key, counts]))
  const course = courseCounts[0]
  return {
    course: profile?.levelId && profile.levelCode
      ? { levelCode: profile.levelCode, language: profile.language, new: course?.new ?? 0, due: course?.due ?? 0, total: course?.total ?? 0 }
      : null,
    decks: decks.map((row) => toDeck(row, byDeck.get(row.id))),
  }
}

/** One of the learner's decks with its counts, or 404. */
export async function readDeck(db: Db, userId: string, id: number, now: Date): Promise<Deck> {
  const [[row], settings] = await Promise.all([
    db.select().from(deck).where(and(eq(deck.id, id), eq(deck.userId, userId))),
    readSettings(db, userId),
  ])
  if (!row) throw deckNotFound()
  const [counts] = await countCards(db, userId, eq(word.deckId, id), endOfDay(settings.timeZone, now), word.deckId)
  return toDeck(row, counts && { new: counts.new, due: counts.due, total: counts.total })
}

/** Tells the learner's other tabs and devices that their decks (and so their queue) changed. */
const announce = (db: Db) => (userId: string) => publishEvent(db, { type: 'practice', userId, data: { reason: 'decks' } })

export async function createDeck(db: Db, userId: string, input: z.output<typeof deckInputSchema>, now: Date): Promise<Deck> {
  const created = await db.transaction(async (tx) => {
    await lockDecks(tx, userId)
    const [held] = await tx.select({ n: count() }).from(deck).where(eq(deck.userId, userId))
    if ((held?.n ?? 0) >= DECKS_MAX) throw decksFull()
    const [row] = await tx.insert(deck).values({ ...input, userId }).returning()
    return row as DeckRecord
  })
  await announce(db)(userId)
  return readDeck(db, userId, created.id, now)
}

export async function updateDeck(db: Db, userId: string, id: number, { version, ...changes }: z.output<typeof deckPatchSchema>, now: Date): Promise<Deck> {
  const [row] = await db
    .update(deck)
    .set({ ...changes, version: sql`${deck.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(deck.id, id), eq(deck.userId, userId), eq(deck.version, version)))
    .returning({ id: deck.id })
  if (!row) {
    await readDeck(db, userId, id, now)
    throw new ApiError('conflict', 'This deck was changed meanwhile (in another tab?): read it again.')
  }
  await announce(db)(userId)
  return readDeck(db, userId, id, now)
}

/** Deletes a deck with its words and their cards; the review logs stay (past days keep their counts). */
export async function deleteDeck(db: Db, userId: string, id: number): Promise<void> {
  const [row] = await db.delete(deck).where(and(eq(deck.id, id), eq(deck.userId, userId))).returning({ id: deck.id })
  if (!row) throw deckNotFound()
  await announce(db)(userId)
}

/**
 * Holds the learner's decks still for the transaction (their count, their cards' count): two
 * imports or two tabs adding at once cannot pass the limits together.
 */
export async function lockDecks(tx: Tx | Db, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('decks:' || ${userId}))`)
}

/** How many deck cards the learner holds. */
export async function cardsHeld(tx: Tx | Db, userId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(word).innerJoin(deck, eq(deck.id, word.deckId)).where(eq(deck.userId, userId))
  return row?.n ?? 0
}

async function ownDeck(tx: Tx | Db, userId: string, id: number, lock = false): Promise<DeckRecord> {
  const query = tx.select().from(deck).where(and(eq(deck.id, id), eq(deck.userId, userId)))
  const [row] = lock ? await query.for('update') : await query
  if (!row) throw deckNotFound()
  return row
}

// --- A deck's words ---------------------------------------------------------------------------

/** The cards a note makes, front and back: the word, and the other way round when asked. */
function cardsOf(input: Pick<DeckWordInput, 'text' | 'reversed'> & { translationEn: string; translationRu: string }) {
  const forward = { ordinal: 0, text: input.text, translationEn: input.translationEn, translationRu: input.translationRu }
  if (!input.reversed) return [forward]
  // The reverse asks the translation in the learner's interface language and answers the word.
  return [forward, { ordinal: 1, text: input.translationEn, translationEn: input.text, translationRu: input.text }]
}

/** One translation is enough: the other takes it. */
function translations(input: DeckWordInput): { translationEn: string; translationRu: string } {
  const en = input.translationEn ?? input.translationRu
  const ru = input.translationRu ?? input.translationEn
  if (!en || !ru) throw new ApiError('validation_failed', 'Give a translation.', { translationEn: ['Give a translation.'] })
  return { translationEn: en, translationRu: ru }
}

const wordColumns = {
  id: deckNote.id,
  deckId: deckNote.deckId,
  kind: deckNote.kind,
  notes: deckNote.notes,
  tags: deckNote.tags,
  createdAt: deckNote.createdAt,
  updatedAt: deckNote.updatedAt,
  text: word.text,
  translationEn: word.translationEn,
  translationRu: word.translationRu,
  example: word.example,
  partOfSpeech: word.partOfSpeech,
  cards: sql<number>`(select count(*) from ${word} as cards where cards.note_id = ${deckNote.id})`.mapWith(Number),
  due: sql<Date | null>`(select min(pc.due) from practice_card pc join word w on w.id = pc.word_id
    where w.note_id = ${deckNote.id} and pc.user_id = ${deckNote.userId} and pc.state <> 0)`.mapWith(practiceCard.due),
}

/** A deck's words: its notes with their first card's fields. */
function deckWords(db: Db | Tx) {
  return db.select(wordColumns).from(deckNote).innerJoin(word, and(eq(word.noteId, deckNote.id), eq(word.ordinal, 0)))
}

type DeckWordRow = Awaited<ReturnType<typeof deckWords>>[number]

function toDeckWord(row: DeckWordRow): DeckWord {
  return {
    ...row,
    kind: row.kind as NoteKind,
    partOfSpeech: row.partOfSpeech as PartOfSpeech | null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    due: row.due ? row.due.toISOString() : null,
  }
}

export async function listDeckWords(db: Db, userId: string, deckId: number, query: DeckWordListQuery): Promise<DeckWordPage> {
  await ownDeck(db, userId, deckId)
  const { page, pageSize } = query
  const pattern = query.q ? `%${query.q.replace(/[\\%_]/g, '\\$&')}%` : undefined
  const where = and(
    eq(deckNote.deckId, deckId),
    pattern
      ? or(ilike(word.text, pattern), ilike(word.translationEn, pattern), ilike(word.translationRu, pattern), ilike(deckNote.notes, pattern))
      : undefined,
  )
  const direction = query.dir === 'desc' ? desc : asc
  const order = query.sort === 'text' ? [direction(sql`lower(${word.text})`)] : query.sort === 'due' ? [sql`${wordColumns.due} ${sql.raw(query.dir === 'desc' ? 'desc nulls last' : 'asc nulls last')}`] : []
  const [rows, [counted]] = await Promise.all([
    deckWords(db).where(where).orderBy(...order, direction(deckNote.id)).limit(pageSize).offset((page - 1) * pageSize),
    db.select({ total: count() }).from(deckNote).innerJoin(word, and(eq(word.noteId, deckNote.id), eq(word.ordinal, 0))).where(where),
  ])
  return { items: rows.map(toDeckWord), total: counted?.total ?? 0, page, pageSize }
}

async function readDeckWord(db: Db | Tx, userId: string, deckId: number, noteId: number): Promise<DeckWord> {
  const [row] = await deckWords(db).where(and(eq(deckNote.id, noteId), eq(deckNote.deckId, deckId), eq(deckNote.userId, userId)))
  if (!row) throw deckWordNotFound()
  return toDeckWord(row)
}

export async function addDeckWord(db: Db, userId: string, deckId: number, input: DeckWordInput): Promise<DeckWord> {
  const both = translations(input)
  const noteId = await db.transaction(async (tx) => {
    await lockDecks(tx, userId)
    const owner = await ownDeck(tx, userId, deckId)
    const cards = cardsOf({ ...input, ...both })
    if ((await cardsHeld(tx, userId)) + cards.length > DECK_CARDS_MAX) throw cardsFull()
    const [note] = await tx
      .insert(deckNote)
      .values({ deckId, userId, guid: randomUUID(), kind: input.reversed ? 'reversed' : 'basic', notes: input.notes, tags: input.tags })
      .returning({ id: deckNote.id })
    if (!note) throw new Error('The note was not stored')
    await tx.insert(word).values(
      cards.map((card) => ({ ...card, deckId, noteId: note.id, language: owner.language, example: input.example, partOfSpeech: input.partOfSpeech })),
    )
    return note.id
  })
  await announce(db)(userId)
  return readDeckWord(db, userId, deckId, noteId)
}

/**
 * Replaces a word's fields. Its cards keep their schedules; a reverse card is added or removed
 * when "reversed" changes (its schedule goes with it).
 */
export async function updateDeckWord(db: Db, userId: string, deckId: number, noteId: number, input: DeckWordInput): Promise<DeckWord> {
  const both = translations(input)
  await db.transaction(async (tx) => {
    await lockDecks(tx, userId)
    const owner = await ownDeck(tx, userId, deckId)
    const [note] = await tx
      .select({ kind: deckNote.kind })
      .from(deckNote)
      .where(and(eq(deckNote.id, noteId), eq(deckNote.deckId, deckId), eq(deckNote.userId, userId)))
      .for('update')
    if (!note) throw deckWordNotFound()
    // A cloze or Anki note type keeps its kind; a word written here is basic or reversed.
    const simple = note.kind === 'basic' || note.kind === 'reversed'
    const cards = cardsOf({ ...input, ...both, reversed: simple ? input.reversed : false })
    const existing = await tx.select({ id: word.id, ordinal: word.ordinal }).from(word).where(eq(word.noteId, noteId))
    const added = cards.filter((card) => !existing.some((row) => row.ordinal === card.ordinal))
    if (added.length && (await cardsHeld(tx, userId)) + added.length > DECK_CARDS_MAX) throw cardsFull()
    const fields = { language: owner.language, example: input.example, partOfSpeech: input.partOfSpeech }
    for (const card of cards) {
      if (existing.some((row) => row.ordinal === card.ordinal)) {
        await tx.update(word).set({ ...card, ...fields, updatedAt: sql`now()` }).where(and(eq(word.noteId, noteId), eq(word.ordinal, card.ordinal)))
      } else {
        await tx.insert(word).values({ ...card, ...fields, deckId, noteId })
      }
    }
    if (simple) {
      const gone = existing.filter((row) => !cards.some((card) => card.ordinal === row.ordinal)).map((row) => row.id)
      if (gone.length) await tx.delete(word).where(inArray(word.id, gone))
    }
    await tx
      .update(deckNote)
      .set({ notes: input.notes, tags: input.tags, kind: simple ? (input.reversed ? 'reversed' : 'basic') : note.kind, updatedAt: sql`now()` })
      .where(eq(deckNote.id, noteId))
  })
  await announce(db)(userId)
  return readDeckWord(db, userId, deckId, noteId)
}

/** Deletes a word with its cards; the review logs stay. */
export async function deleteDeckWord(db: Db, userId: string, deckId: number, noteId: number): Promise<void> {
  const [row] = await db
    .delete(deckNote)
    .where(and(eq(deckNote.id, noteId), eq(deckNote.deckId, deckId), eq(deckNote.userId, userId)))
    .returning({ id: deckNote.id })
  if (!row) throw deckWordNotFound()
  await announce(db)(userId)
}
