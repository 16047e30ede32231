import { and, eq } from 'drizzle-orm'
import type { CsvRefusal } from '@/shared/csv'
import { DECK_CSV_EXTRA_COLUMNS } from '@/shared/decks'
import type { WordImportResult } from '@/shared/words'
import type { Db } from '@/server/db/client'
import { deckNote, word } from '@/server/db/schema'
import { type ParsedFile, parseWordsFile } from '@/server/api/words/csv'
import { type PlannedImport, type PlannedNote, chunks } from './write'

/**
 * A CSV file in the columns of §11 (and a deck's export's deck, tags and notes) made into notes of
 * one of the learner's decks: each row a basic word, found again in the deck by its text (ignoring
 * case) and part of speech — a word typed in by hand as well as one a file brought —, so a file
 * imported twice updates its words. A row the file refuses is skipped with its line and reason.
 */

type Row = ParsedFile['rows'][number]

const keyOf = (text: string, partOfSpeech: string | null) => `${text.toLowerCase()}:${partOfSpeech ?? ''}`

/** The deck's words as a file's rows would name them, with what a row compares to. */
async function wordsOfDeck(db: Db, userId: string, deckId: number) {
  const rows = await db
    .select({
      guid: deckNote.guid,
      text: word.text,
      translationEn: word.translationEn,
      translationRu: word.translationRu,
      example: word.example,
      partOfSpeech: word.partOfSpeech,
      tags: deckNote.tags,
      notes: deckNote.notes,
    })
    .from(deckNote)
    .innerJoin(word, and(eq(word.noteId, deckNote.id), eq(word.ordinal, 0)))
    .where(and(eq(deckNote.deckId, deckId), eq(deckNote.userId, userId)))
  return new Map(rows.map((row) => [keyOf(row.text, row.partOfSpeech), row]))
}

const tagsOf = (extra: Row['extra']) => (extra.tags ?? '').split(/\s+/).filter(Boolean).slice(0, 20).map((tag) => tag.slice(0, 50))
const notesOf = (extra: Row['extra']) => extra.notes?.trim().slice(0, 2000) || null

function noteOf({ row, extra }: Row, deckId: number, guid: string): PlannedNote {
  return {
    guid,
    kind: 'basic',
    fields: null,
    tags: tagsOf(extra),
    notes: notesOf(extra),
    example: row.example,
    partOfSpeech: row.partOfSpeech,
    deck: { id: deckId },
    cards: [{ ordinal: 0, front: row.text, back: row.translationEn, backRu: row.translationRu }],
  }
}

/** The file read, each row matched with the deck's word it names (if any). */
async function readFile(db: Db, userId: string, text: string, deckId: number) {
  const parsed = parseWordsFile(text, DECK_CSV_EXTRA_COLUMNS)
  const stored = await wordsOfDeck(db, userId, deckId)
  return { parsed, matched: parsed.rows.map((row) => ({ row, found: stored.get(keyOf(row.row.text, row.row.partOfSpeech)) })) }
}

export async function planCsvImport(db: Db, userId: string, text: string, deckId: number, language: string): Promise<PlannedImport> {
  const { parsed, matched } = await readFile(db, userId, text, deckId)
  const notes = matched.map(({ row, found }) => noteOf(row, deckId, found?.guid ?? `csv:${deckId}:${keyOf(row.row.text, row.row.partOfSpeech)}`))
  return {
    language,
    media: 0,
    skipped: parsed.refused.map((refusal) => ({ note: `line ${refusal.line}`, reason: refusal.reason })),
    outline: notes.map((note) => ({ guid: note.guid, deck: note.deck, cards: note.cards.length })),
    // In the batches of an Anki import's spill file (100 notes).
    notes: chunks(notes, 100),
  }
}

/**
 * What importing the file into the deck would do, writing nothing (the admins' "Check file"): the
 * words it would add, change and leave as they are, and every row it would skip.
 */
export async function previewCsvImport(db: Db, userId: string, text: string, deckId: number): Promise<WordImportResult> {
  const { parsed, matched } = await readFile(db, userId, text, deckId)
  let created = 0
  let updated = 0
  for (const { row, found } of matched) {
    if (!found) created++
    else if (
      found.text !== row.row.text ||
      found.translationEn !== row.row.translationEn ||
      found.translationRu !== row.row.translationRu ||
      found.example !== row.row.example ||
      JSON.stringify(found.tags) !== JSON.stringify(tagsOf(row.extra)) ||
      found.notes !== notesOf(row.extra)
    )
      updated++
  }
  const refused: CsvRefusal[] = parsed.refused
  return { dryRun: true, rows: parsed.rows.length + refused.length, created, updated, unchanged: matched.length - created - updated, refused }
}
