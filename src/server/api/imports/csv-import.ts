import { DECK_CSV_EXTRA_COLUMNS } from '@/shared/decks'
import { parseWordsFile } from '@/server/api/words/csv'
import type { PlannedImport } from './write'

/**
 * A CSV file in the columns of §11 (and a deck's export's deck, tags and notes) made into notes of one of the learner's decks: each row a basic
 * word, found again by its text and part of speech (its `guid`), so a file imported twice updates
 * its words. A row the file refuses is skipped with its line and reason.
 */
export function planCsvImport(text: string, deckId: number, language: string): PlannedImport {
  const parsed = parseWordsFile(text, DECK_CSV_EXTRA_COLUMNS)
  return {
    language,
    media: 0,
    skipped: parsed.refused.map((refusal) => ({ note: `line ${refusal.line}`, reason: refusal.reason })),
    notes: parsed.rows.map(({ row, extra }) => ({
      guid: `csv:${deckId}:${row.text.toLowerCase()}:${row.partOfSpeech ?? ''}`,
      kind: 'basic' as const,
      fields: null,
      tags: (extra.tags ?? '').split(/\s+/).filter(Boolean).slice(0, 20).map((tag) => tag.slice(0, 50)),
      notes: extra.notes?.trim().slice(0, 2000) || null,
      example: row.example,
      partOfSpeech: row.partOfSpeech,
      deck: { id: deckId },
      cards: [{ ordinal: 0, front: row.text, back: row.translationEn, backRu: row.translationRu }],
    })),
  }
}
