/** What a package holds, as read (src/server/api/imports/anki/read.ts). */
export interface AnkiDeck {
  id: number
  /** Levels joined with '::' ("Parent::Child"). */
  name: string
}

export type NoteTypeKind = 'basic' | 'reversed' | 'optionalReversed' | 'typing' | 'cloze' | 'other'

export interface AnkiNoteType {
  id: number
  name: string
  kind: NoteTypeKind
  fieldNames: string[]
}

export interface AnkiNote {
  id: number
  guid: string
  noteTypeId: number
  fields: string[]
  tags: string[]
  /** Epoch seconds. */
  modified: number
}

export interface AnkiCard {
  id: number
  noteId: number
  /** The card's home deck (for a card in a filtered deck, the deck it came from). */
  deckId: number
  ordinal: number
  /** 0 new, 1 learning, 2 review, 3 relearning. */
  type: number
  /** −1 suspended, −2/−3 buried, else as `type` (4 preview). */
  queue: number
  /** Review: days since `created`; (re)learning: epoch seconds; new: position. */
  due: number
  interval: number
  factor: number
  reps: number
  lapses: number
}

export interface AnkiReview {
  /** Epoch milliseconds. */
  id: number
  cardId: number
  ease: number
  interval: number
  lastInterval: number
  factor: number
  time: number
  /** 0 learn, 1 review, 2 relearn, 3 filtered, 4 manual, 5 rescheduled. */
  type: number
}

export interface AnkiMedia {
  /** The file name the notes' fields refer to. */
  name: string
  /** The zip entry holding it ("0", "1", …). */
  entry: string
  /** Declared size (Anki 2.1.50+ packages). */
  size?: number
}

export interface AnkiCollection {
  format: 'anki2' | 'anki21' | 'anki21b'
  /** col.crt, epoch seconds (the day the `due` of review cards counts from). */
  created: number
  decks: AnkiDeck[]
  noteTypes: AnkiNoteType[]
  notes: AnkiNote[]
  cards: AnkiCard[]
  reviews: AnkiReview[]
  media: AnkiMedia[]
}
