import { and, asc, eq } from 'drizzle-orm'
import { DECK_CSV_EXTRA_COLUMNS, type NoteKind, noteKinds } from '@/shared/decks'
import { WORD_CSV_COLUMNS } from '@/shared/words'
import type { Db } from '@/server/db/client'
import { deck, deckNote, practiceCard, word } from '@/server/db/schema'
import { csvFile } from '@/server/http/csv'
import { deckNotFound } from '@/server/api/practice/queue'
import type { StoredCard } from '@/server/api/practice/scheduler'

/**
 * What a deck's exports read (docs/decisions/0032-decks.md): the deck, its notes in the order they
 * were made, each with its cards (`word` rows, by ordinal) and the owner's schedule of each; and the
 * CSV file made of them.
 */

export type ExportedDeck = typeof deck.$inferSelect

interface ExportedCard {
  wordId: number
  ordinal: number
  language: string
  text: string
  translationEn: string
  translationRu: string
  example: string | null
  partOfSpeech: string | null
  /** The owner's practice card (its schedule columns and `suspended`); null: never answered. */
  schedule: (StoredCard & { suspended: boolean }) | null
}

export interface ExportedNote {
  id: number
  guid: string
  kind: NoteKind
  /** An imported note's cleaned fields; null for a note written in Lingua (or from a CSV file). */
  fields: string[] | null
  tags: string[]
  notes: string | null
  ankiId: number | null
  createdAt: Date
  updatedAt: Date
  /** By ordinal; at least one. */
  cards: ExportedCard[]
}

/** The learner's deck, or 404 (another's deck is not found, for administrators too). */
export async function exportedDeck(db: Db, userId: string, deckId: number): Promise<ExportedDeck> {
  const [row] = await db.select().from(deck).where(and(eq(deck.id, deckId), eq(deck.userId, userId)))
  if (!row) throw deckNotFound()
  return row
}

const kindOf = (kind: string): NoteKind => ((noteKinds as readonly string[]).includes(kind) ? (kind as NoteKind) : 'basic')

/** The deck's notes with their cards and schedules (notes without a card are left out). */
export async function exportedNotes(db: Db, userId: string, deckId: number): Promise<ExportedNote[]> {
  const [notes, cards] = await Promise.all([
    db.select().from(deckNote).where(and(eq(deckNote.deckId, deckId), eq(deckNote.userId, userId))).orderBy(asc(deckNote.id)),
    db
      .select({ word, card: practiceCard })
      .from(word)
      .leftJoin(practiceCard, and(eq(practiceCard.wordId, word.id), eq(practiceCard.userId, userId)))
      .where(eq(word.deckId, deckId))
      .orderBy(asc(word.noteId), asc(word.ordinal)),
  ])
  const byNote = new Map<number, ExportedCard[]>()
  for (const { word: row, card } of cards) {
    if (row.noteId === null) continue
    const list = byNote.get(row.noteId) ?? []
    list.push({
      wordId: row.id,
      ordinal: row.ordinal,
      language: row.language,
      text: row.text,
      translationEn: row.translationEn,
      translationRu: row.translationRu,
      example: row.example,
      partOfSpeech: row.partOfSpeech,
      schedule: card,
    })
    byNote.set(row.noteId, list)
  }
  return notes.flatMap((note) => {
    const list = byNote.get(note.id)
    if (!list?.length) return []
    return [
      {
        id: note.id,
        guid: note.guid,
        kind: kindOf(note.kind),
        fields: note.fields ?? null,
        tags: note.tags,
        notes: note.notes,
        ankiId: note.ankiId,
        createdAt: note.createdAt,
        updatedAt: note.updatedAt,
        cards: list,
      },
    ]
  })
}

/** The CSV file's columns: §11's, then the deck's name, the tags (space-separated) and the notes. */
const DECK_CSV_COLUMNS = [...WORD_CSV_COLUMNS, ...DECK_CSV_EXTRA_COLUMNS] as const

/**
 * The deck as CSV (http/csv.ts's writer, as the words of a level are written: a BOM, CRLF, a field a
 * spreadsheet would run as a formula behind a `'`): one row a note, its first card's fields.
 */
export function deckCsv(owner: ExportedDeck, notes: readonly ExportedNote[]): string {
  return csvFile(
    DECK_CSV_COLUMNS,
    notes.map((note) => {
      const card = note.cards[0] as ExportedCard
      return [card.language, card.text, card.translationEn, card.translationRu, card.example, card.partOfSpeech, owner.name, note.tags.join(' '), note.notes]
    }),
  )
}

/** The file's name: the deck's name in lower-case ASCII words joined by `-` ("Spanish::Verbs" → spanish-verbs). */
export function exportFileName(owner: ExportedDeck, extension: 'csv' | 'apkg'): string {
  const slug = owner.name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '')
  return `${slug || `deck-${owner.id}`}.${extension}`
}
