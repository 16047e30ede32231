import type { PartOfSpeech } from './words'

/**
 * A learner's own decks and their words (docs/product.md §12): bounds and the API's answer types.
 * No zod here, so that the client's first page can use them (`decks-schemas.ts` has the schemas).
 */

export const DECK_NAME_MAX = 100
export const DECK_DESCRIPTION_MAX = 500
export const DECK_NOTES_MAX = 2000
export const DECK_TAG_MAX = 50
export const DECK_TAGS_MAX = 20
/** A learner holds at most this many decks and cards. */
export const DECKS_MAX = 100
export const DECK_CARDS_MAX = 50_000
export const DECK_WORD_PAGE_SIZE_DEFAULT = 50
export const DECK_WORD_PAGE_SIZE_MAX = 200

/** The columns a deck's CSV file adds after the words' own (§11): its export, taken back by the import. */
export const DECK_CSV_EXTRA_COLUMNS = ['deck', 'tags', 'notes'] as const

/** How a note makes its cards: one, one each way, or one per cloze number. */
export const noteKinds = ['basic', 'reversed', 'optionalReversed', 'typing', 'cloze'] as const
export type NoteKind = (typeof noteKinds)[number]

/** Counts of a deck's cards: new (never answered), due before the learner's day ends, all. */
export interface DeckCounts {
  new: number
  due: number
  total: number
}

export interface Deck extends DeckCounts {
  id: number
  name: string
  /** ISO 639-1 code of its words' language. */
  language: string
  description: string | null
  practiseDaily: boolean
  version: number
  createdAt: string
  updatedAt: string
}

/** `GET /api/me/decks`: the course words of the current level (not editable), then the decks. */
export interface DeckList {
  course: (DeckCounts & { levelCode: string; language: string | null }) | null
  decks: Deck[]
}

/** A word of a deck (its note: the fields its cards are made from). */
export interface DeckWord {
  id: number
  deckId: number
  kind: NoteKind
  text: string
  translationEn: string
  translationRu: string
  example: string | null
  partOfSpeech: PartOfSpeech | null
  notes: string | null
  tags: string[]
  /** Its cards: 1, or 2 for a reversed note, one per cloze number. */
  cards: number
  /** When its first card is due next; null while new. */
  due: string | null
  createdAt: string
  updatedAt: string
}

export const deckWordSorts = ['created', 'text', 'due'] as const
export type DeckWordSort = (typeof deckWordSorts)[number]

export interface DeckWordPage {
  items: DeckWord[]
  total: number
  page: number
  pageSize: number
}
