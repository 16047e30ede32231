import { and, count, eq, inArray, sql } from 'drizzle-orm'
import { DECKS_MAX, DECK_CARDS_MAX, type NoteKind } from '@/shared/decks'
import type { ImportJob } from '@/shared/imports'
import type { Db, Tx } from '@/server/db/client'
import { deck, deckNote, importJob, importUpload, practiceCard, reviewLog, word } from '@/server/db/schema'
import { ApiError } from '@/server/http/errors'
import { cardsFull, cardsHeld, lockDecks } from '@/server/api/decks/store'
import { queueFirstFit } from '@/server/api/practice/memory-model-job'
import type { Settings } from '@/server/api/practice/settings'
import type { ReplayedCard, ReplayedReview } from './anki/replay'
import type { JobContext } from './worker'

/**
 * Writes what an import planned, all or nothing, in one transaction that also ends its job: a
 * crash before the commit leaves nothing of it, and an instance that lost its claim on the job
 * (it took too long, another took over) writes nothing. A note found by its `guid` (Anki's, or
 * the CSV's word in that deck) is updated, not added twice; its cards keep Lingua's schedules and
 * gain only the reviews they lack.
 */

export interface PlannedCard {
  ordinal: number
  front: string
  back: string
  /** The back in Russian when the file has it (else the back). */
  backRu?: string
  /** The sides as cleaned HTML (an Anki note's). */
  html?: { front: string; back: string }
  replayed?: ReplayedCard
}

export interface PlannedNote {
  guid: string
  ankiId?: number
  kind: NoteKind
  fields: string[] | null
  tags: string[]
  notes: string | null
  example?: string | null
  partOfSpeech?: string | null
  /** An Anki deck (found again by its id) or one of the learner's decks. */
  deck: { ankiId: number; name: string } | { id: number }
  cards: PlannedCard[]
}

/** What the write decides before it reads the notes: each note's guid, deck and number of cards. */
export interface NoteOutline {
  guid: string
  deck: PlannedNote['deck']
  cards: number
}

export interface PlannedImport {
  /** Every note, in the order of `notes`. */
  outline: NoteOutline[]
  /** The notes in batches, read once (an Anki import's from its spill file, spill.ts). */
  notes: AsyncIterable<PlannedNote[]> | Iterable<PlannedNote[]>
  skipped: { note: string; reason: string }[]
  media: number
  language: string
}

const decksFull = () => new ApiError('decks_full', `At most ${DECKS_MAX} decks`)
const lostClaim = () => new Error('The import was taken over by another instance')
const BATCH = 1000
/** Reviews a statement: its JSON (about 1 KB a review) stays a young object, collected young. */
const REVIEWS_A_STATEMENT = 100

/** `items` in slices of `size`: rows a statement, notes a batch. */
export function chunks<T>(items: T[], size = BATCH): T[][] {
  const out: T[][] = []
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size))
  return out
}

/** What an import did (the job's result). */
export type ImportResult = Omit<ImportJob, 'id' | 'kind' | 'fileName' | 'status' | 'done' | 'total' | 'createdAt' | 'finishedAt' | 'error'>

/** What the write needs of its job: whose it is, and the condition that it is still this instance's. */
export type WriteContext = Pick<JobContext, 'stillMine'> & { job: Pick<JobContext['job'], 'id' | 'userId'> }

/** What every batch of notes is written with. */
interface Target {
  userId: string
  language: string
  settings: Settings
  now: Date
  /** guid → the note's id: those there before the import, then those it adds. */
  noteIds: Map<string, number>
  deckOfNote: Map<string, number>
}

export async function writeImport(db: Db, context: WriteContext, plan: PlannedImport, settings: Settings, now: Date): Promise<ImportResult> {
  const result = await writeAll(db, context, plan, settings, now)
  // A large import changes the tables at once: the planner needs their statistics now (a stale
  // estimate sorts every due card before taking the first twenty), not at autovacuum's next
  // round — and the embedded PGlite has no autovacuum.
  if (result.cards + result.reviews >= STATISTICS_AFTER_ROWS) await db.execute(sql`analyze ${deckNote}, ${word}, ${practiceCard}, ${reviewLog}`)
  return result
}

/** Rows an import writes from which the tables' statistics are gathered again after it. */
const STATISTICS_AFTER_ROWS = 1000

async function writeAll(db: Db, context: WriteContext, plan: PlannedImport, settings: Settings, now: Date): Promise<ImportResult> {
  const { userId } = context.job
  return db.transaction(async (tx) => {
    await lockDecks(tx, userId)
    // Notes found again by guid stay in their deck; the others go into theirs.
    const noteIds = new Map<string, number>()
    const deckOfNote = new Map<string, number>()
    for (const part of chunks(plan.outline.map((note) => note.guid))) {
      const rows = await tx
        .select({ id: deckNote.id, guid: deckNote.guid, deckId: deckNote.deckId })
        .from(deckNote)
        .where(and(eq(deckNote.userId, userId), inArray(deckNote.guid, part)))
      for (const row of rows) {
        noteIds.set(row.guid, row.id)
        deckOfNote.set(row.guid, row.deckId)
      }
    }
    const fresh = plan.outline.filter((note) => !noteIds.has(note.guid))

    // Decks: the learner's own checked to be theirs; Anki's found again by their id, or made — only
    // for new notes (a package whose notes are all found again makes no empty deck).
    const deckIds = new Map<string, number>()
    const keyOf = (target: PlannedNote['deck']) => ('id' in target ? `id:${target.id}` : `anki:${target.ankiId}`)
    const wanted = new Set(fresh.map((note) => keyOf(note.deck)))
    const ownDecks = await tx.select({ id: deck.id, ankiId: deck.ankiId, name: deck.name }).from(deck).where(eq(deck.userId, userId))
    let held = ownDecks.length
    for (const note of plan.outline) {
      const key = keyOf(note.deck)
      if (deckIds.has(key)) continue
      const target = note.deck
      if ('id' in target) {
        if (!ownDecks.some((own) => own.id === target.id)) throw new ApiError('not_found', 'Deck not found')
        deckIds.set(key, target.id)
        continue
      }
      const found = ownDecks.find((own) => own.ankiId === target.ankiId)
      if (found) {
        deckIds.set(key, found.id)
        continue
      }
      if (!wanted.has(key)) continue
      if (++held > DECKS_MAX) throw decksFull()
      const name = target.name.trim().slice(0, 100) || 'Default'
      const [made] = await tx.insert(deck).values({ userId, name, language: plan.language, ankiId: target.ankiId }).returning({ id: deck.id })
      if (!made) throw new Error('The deck was not stored')
      deckIds.set(key, made.id)
    }
    for (const note of fresh) deckOfNote.set(note.guid, deckIds.get(keyOf(note.deck)) as number)

    const addedCards = fresh.reduce((sum, note) => sum + note.cards, 0)
    if ((await cardsHeld(tx, userId)) + addedCards > DECK_CARDS_MAX) throw cardsFull()

    // The notes, a batch at a time.
    const target: Target = { userId, language: plan.language, settings, now, noteIds, deckOfNote }
    let reviews = 0
    for await (const batch of plan.notes) reviews += await writeNotes(tx, batch, target)

    const decks = await tx
      .select({ id: deck.id, name: deck.name, cards: count(word.id) })
      .from(deck)
      .leftJoin(word, eq(word.deckId, deck.id))
      .where(and(eq(deck.userId, userId), inArray(deck.id, [...new Set(deckOfNote.values())])))
      .groupBy(deck.id)
    const result: ImportResult = {
      notes: plan.outline.length,
      cards: plan.outline.reduce((sum, note) => sum + note.cards, 0),
      reviews,
      media: plan.media,
      decks,
      skipped: plan.skipped.slice(0, 100),
    }
    const [ended] = await tx
      .update(importJob)
      .set({ status: 'done', result: { ...result }, lockedBy: null, lockedUntil: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
      .where(context.stillMine)
      .returning({ id: importJob.id })
    if (!ended) throw lostClaim()
    await tx.delete(importUpload).where(eq(importUpload.jobId, context.job.id))
    // Reviews that bring the learner to enough queue their first memory model, with the import's end.
    if (settings.memoryModel === null && reviews > 0) await queueFirstFit(tx, userId)
    return result
  })
}

const noteValues = (note: PlannedNote) => ({
  kind: note.kind,
  fields: note.fields,
  tags: note.tags,
  notes: note.notes,
  ...(note.ankiId === undefined ? {} : { ankiId: note.ankiId }),
})

/** One batch of notes: added or updated, their cards' words and schedules, and the reviews they lack. Returns the reviews added. */
async function writeNotes(tx: Tx, notes: PlannedNote[], target: Target): Promise<number> {
  const { userId, noteIds, deckOfNote } = target
  const fresh = notes.filter((note) => !noteIds.has(note.guid))
  for (const part of chunks(fresh)) {
    const rows = await tx
      .insert(deckNote)
      .values(part.map((note) => ({ ...noteValues(note), userId, guid: note.guid, deckId: deckOfNote.get(note.guid) as number })))
      .returning({ id: deckNote.id, guid: deckNote.guid })
    for (const row of rows) noteIds.set(row.guid, row.id)
  }
  const added = new Set(fresh)
  for (const note of notes.filter((planned) => !added.has(planned))) {
    // A CSV row changes a word's tags and notes; its kind (asked both ways or not) stays the learner's.
    const values = note.fields === null ? { tags: note.tags, notes: note.notes } : noteValues(note)
    await tx.update(deckNote).set({ ...values, updatedAt: sql`now()` }).where(eq(deckNote.id, noteIds.get(note.guid) as number))
  }

  // Cards: a word row each (updated when there), then their schedules and reviews.
  const wordIds = new Map<string, number>()
  for (const part of chunks(notes.map((note) => noteIds.get(note.guid) as number))) {
    const rows = await tx.select({ id: word.id, noteId: word.noteId, ordinal: word.ordinal }).from(word).where(inArray(word.noteId, part))
    for (const row of rows) wordIds.set(`${row.noteId}:${row.ordinal}`, row.id)
  }
  // The cards there before this import: their reviews already kept are not added again.
  const before = [...wordIds.values()]
  const newWords: (typeof word.$inferInsert)[] = []
  for (const note of notes) {
    const noteId = noteIds.get(note.guid) as number
    const deckId = deckOfNote.get(note.guid) as number
    for (const card of note.cards) {
      const values = {
        text: card.front,
        translationEn: card.back,
        translationRu: card.backRu ?? card.back,
        example: note.example ?? null,
        partOfSpeech: note.partOfSpeech ?? null,
        frontHtml: card.html?.front ?? null,
        backHtml: card.html?.back ?? null,
      }
      const id = wordIds.get(`${noteId}:${card.ordinal}`)
      if (id) await tx.update(word).set({ ...values, updatedAt: sql`now()` }).where(eq(word.id, id))
      else newWords.push({ ...values, language: target.language, deckId, noteId, ordinal: card.ordinal })
    }
  }
  for (const part of chunks(newWords)) {
    const rows = await tx.insert(word).values(part).returning({ id: word.id, noteId: word.noteId, ordinal: word.ordinal })
    for (const row of rows) wordIds.set(`${row.noteId}:${row.ordinal}`, row.id)
  }

  const cardRows: (typeof practiceCard.$inferInsert)[] = []
  const reviewRows: (ReplayedReview & { wordId: number })[] = []
  for (const note of notes) {
    const noteId = noteIds.get(note.guid) as number
    for (const card of note.cards) {
      const wordId = wordIds.get(`${noteId}:${card.ordinal}`) as number
      const replayed = card.replayed
      if (!replayed) continue
      if (replayed.card) cardRows.push({ ...replayed.card, userId, wordId, version: replayed.version, suspended: replayed.suspended })
      else if (replayed.suspended) {
        // A new card suspended in Anki: a row that keeps it out of the new words.
        cardRows.push({ userId, wordId, due: target.now, stability: 0, difficulty: 0, elapsedDays: 0, scheduledDays: 0, learningSteps: 0, reps: 0, lapses: 0, state: 0, lastReview: null, suspended: true })
      }
      for (const review of replayed.reviews) reviewRows.push({ ...review, wordId })
    }
  }
  for (const part of chunks(cardRows)) await tx.insert(practiceCard).values(part).onConflictDoNothing()
  // Cards with a practice card are not among their deck's new cards.
  const practised = cardRows.map((row) => row.wordId)
  for (const part of chunks(practised)) await tx.update(word).set({ practised: true }).where(and(inArray(word.id, part), eq(word.practised, false)))
  const kept = new Set<string>()
  for (const part of chunks(before)) {
    const rows = await tx
      .select({ wordId: reviewLog.wordId, review: reviewLog.review })
      .from(reviewLog)
      .where(and(eq(reviewLog.userId, userId), inArray(reviewLog.wordId, part)))
    for (const row of rows) kept.add(`${row.wordId}:${row.review.getTime()}`)
  }
  // A review is the same one when its card and time are (a Lingua export imported back by its
  // learner: reviews given here have no Anki id to be told by).
  const unseen = reviewRows.filter((row) => !kept.has(`${row.wordId}:${row.review.getTime()}`))
  let reviews = 0
  for (const part of chunks(unseen, REVIEWS_A_STATEMENT)) reviews += await insertReviews(tx, part, target)
  return reviews
}

/**
 * Reviews as one JSON parameter read by `jsonb_to_recordset`: a history of hundreds of thousands
 * of reviews is mostly these rows, and a statement of one parameter (not 18 a row) leaves the
 * server's heap far less to collect. Returns how many were added (the others were there).
 */
async function insertReviews(tx: Tx, rows: (ReplayedReview & { wordId: number })[], target: Target): Promise<number> {
  const json = JSON.stringify(
    rows.map((row) => ({
      word_id: row.wordId,
      client_id: row.clientId,
      rating: row.rating,
      state: row.state,
      due: row.due,
      stability: row.stability,
      difficulty: row.difficulty,
      elapsed_days: row.elapsedDays,
      last_elapsed_days: row.lastElapsedDays,
      scheduled_days: row.scheduledDays,
      learning_steps: row.learningSteps,
      review: row.review,
      day: row.day,
      card_before: row.cardBefore,
      card_after: row.cardAfter,
    })),
  )
  const result: unknown = await tx.execute(sql`
    with added as (
      insert into review_log (user_id, word_id, client_id, rating, state, due, stability, difficulty, elapsed_days,
        last_elapsed_days, scheduled_days, learning_steps, review, received_at, day, goal, card_before, card_after)
      select ${target.userId}, r.word_id, r.client_id, r.rating, r.state, r.due, r.stability, r.difficulty, r.elapsed_days,
        r.last_elapsed_days, r.scheduled_days, r.learning_steps, r.review, ${target.now}, r.day, ${target.settings.dailyGoal},
        r.card_before, r.card_after
      from jsonb_to_recordset(${json}::jsonb) as r(word_id integer, client_id text, rating smallint, state smallint,
        due timestamptz, stability double precision, difficulty double precision, elapsed_days integer,
        last_elapsed_days integer, scheduled_days integer, learning_steps integer, review timestamptz, day date,
        card_before jsonb, card_after jsonb)
      on conflict do nothing
      returning 1
    )
    select count(*)::int as n from added`)
  // Both drivers' results (node-postgres's, PGlite's) have their rows in `rows`.
  const { rows: counted } = result as { rows: { n: number }[] }
  return Number(counted[0]?.n ?? 0)
}
