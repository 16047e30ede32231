import { and, count, eq, inArray, sql } from 'drizzle-orm'
import { DECKS_MAX, DECK_CARDS_MAX, type NoteKind } from '@/shared/decks'
import type { ImportJob } from '@/shared/imports'
import type { Db } from '@/server/db/client'
import { deck, deckNote, importJob, importUpload, practiceCard, reviewLog, word } from '@/server/db/schema'
import { ApiError } from '@/server/http/errors'
import { cardsFull, cardsHeld, lockDecks } from '@/server/api/decks/store'
import type { Settings } from '@/server/api/practice/settings'
import type { ReplayedCard } from './anki/replay'
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

export interface PlannedImport {
  notes: PlannedNote[]
  skipped: { note: string; reason: string }[]
  media: number
  language: string
}

const decksFull = () => new ApiError('decks_full', `At most ${DECKS_MAX} decks`)
const lostClaim = () => new Error('The import was taken over by another instance')
const BATCH = 1000

function chunks<T>(items: T[], size = BATCH): T[][] {
  const out: T[][] = []
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size))
  return out
}

type Result = Omit<ImportJob, 'id' | 'kind' | 'fileName' | 'status' | 'done' | 'total' | 'createdAt' | 'finishedAt' | 'error'>

export async function writeImport(db: Db, context: JobContext, plan: PlannedImport, settings: Settings, now: Date): Promise<Result> {
  const { userId } = context.job
  return db.transaction(async (tx) => {
    await lockDecks(tx, userId)
    // Notes found again by guid stay in their deck; the others go into theirs.
    const existing = new Map<string, number>()
    const deckOfNote = new Map<string, number>()
    for (const part of chunks(plan.notes.map((note) => note.guid))) {
      const rows = await tx
        .select({ id: deckNote.id, guid: deckNote.guid, deckId: deckNote.deckId })
        .from(deckNote)
        .where(and(eq(deckNote.userId, userId), inArray(deckNote.guid, part)))
      for (const row of rows) {
        existing.set(row.guid, row.id)
        deckOfNote.set(row.guid, row.deckId)
      }
    }
    const fresh = plan.notes.filter((note) => !existing.has(note.guid))

    // Decks: the learner's own checked to be theirs; Anki's found again by their id, or made — only
    // for new notes (a package whose notes are all found again makes no empty deck).
    const deckIds = new Map<string, number>()
    const keyOf = (target: PlannedNote['deck']) => ('id' in target ? `id:${target.id}` : `anki:${target.ankiId}`)
    const wanted = new Set(fresh.map((note) => keyOf(note.deck)))
    const ownDecks = await tx.select({ id: deck.id, ankiId: deck.ankiId, name: deck.name }).from(deck).where(eq(deck.userId, userId))
    let held = ownDecks.length
    for (const note of plan.notes) {
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

    const addedCards = fresh.reduce((sum, note) => sum + note.cards.length, 0)
    if ((await cardsHeld(tx, userId)) + addedCards > DECK_CARDS_MAX) throw cardsFull()
    const noteValues = (note: PlannedNote) => ({
      kind: note.kind,
      fields: note.fields,
      tags: note.tags,
      notes: note.notes,
      ...(note.ankiId === undefined ? {} : { ankiId: note.ankiId }),
    })
    for (const part of chunks(fresh)) {
      const rows = await tx
        .insert(deckNote)
        .values(part.map((note) => ({ ...noteValues(note), userId, guid: note.guid, deckId: deckOfNote.get(note.guid) as number })))
        .returning({ id: deckNote.id, guid: deckNote.guid })
      for (const row of rows) existing.set(row.guid, row.id)
    }
    const added = new Set(fresh)
    for (const note of plan.notes.filter((planned) => !added.has(planned))) {
      // A CSV row changes a word's tags and notes; its kind (asked both ways or not) stays the learner's.
      const values = note.fields === null ? { tags: note.tags, notes: note.notes } : noteValues(note)
      await tx.update(deckNote).set({ ...values, updatedAt: sql`now()` }).where(eq(deckNote.id, existing.get(note.guid) as number))
    }

    // Cards: a word row each (updated when there), then their schedules and reviews.
    const noteIds = plan.notes.map((note) => existing.get(note.guid) as number)
    const wordIds = new Map<string, number>()
    for (const part of chunks(noteIds)) {
      const rows = await tx.select({ id: word.id, noteId: word.noteId, ordinal: word.ordinal }).from(word).where(inArray(word.noteId, part))
      for (const row of rows) wordIds.set(`${row.noteId}:${row.ordinal}`, row.id)
    }
    // The cards there before this import: their reviews already kept are not added again.
    const before = [...wordIds.values()]
    const newWords: (typeof word.$inferInsert)[] = []
    for (const note of plan.notes) {
      const noteId = existing.get(note.guid) as number
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
        else newWords.push({ ...values, language: plan.language, deckId, noteId, ordinal: card.ordinal })
      }
    }
    for (const part of chunks(newWords)) {
      const rows = await tx.insert(word).values(part).returning({ id: word.id, noteId: word.noteId, ordinal: word.ordinal })
      for (const row of rows) wordIds.set(`${row.noteId}:${row.ordinal}`, row.id)
    }

    const cardRows: (typeof practiceCard.$inferInsert)[] = []
    const reviewRows: (typeof reviewLog.$inferInsert)[] = []
    for (const note of plan.notes) {
      const noteId = existing.get(note.guid) as number
      for (const card of note.cards) {
        const wordId = wordIds.get(`${noteId}:${card.ordinal}`) as number
        const replayed = card.replayed
        if (!replayed) continue
        if (replayed.card) cardRows.push({ ...replayed.card, userId, wordId, version: replayed.version, suspended: replayed.suspended })
        else if (replayed.suspended) {
          // A new card suspended in Anki: a row that keeps it out of the new words.
          cardRows.push({ userId, wordId, due: now, stability: 0, difficulty: 0, elapsedDays: 0, scheduledDays: 0, learningSteps: 0, reps: 0, lapses: 0, state: 0, lastReview: null, suspended: true })
        }
        for (const review of replayed.reviews) {
          reviewRows.push({ ...review, userId, wordId, receivedAt: now, goal: settings.dailyGoal })
        }
      }
    }
    for (const part of chunks(cardRows)) await tx.insert(practiceCard).values(part).onConflictDoNothing()
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
    for (const part of chunks(unseen)) {
      reviews += (await tx.insert(reviewLog).values(part).onConflictDoNothing().returning({ id: reviewLog.id })).length
    }

    const decks = await tx
      .select({ id: deck.id, name: deck.name, cards: count(word.id) })
      .from(deck)
      .leftJoin(word, eq(word.deckId, deck.id))
      .where(and(eq(deck.userId, userId), inArray(deck.id, [...new Set(deckOfNote.values())])))
      .groupBy(deck.id)
    const result: Result = {
      notes: plan.notes.length,
      cards: plan.notes.reduce((sum, note) => sum + note.cards.length, 0),
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
    return result
  })
}
