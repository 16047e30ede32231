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

/**
 * A collection's revlog, packed in typed arrays and sorted by card, then time: 200,000 reviews as
 * objects held about 24 MB of the planner's heap (an object, a boxed id and an array slot each),
 * packed 8. A card's reviews are made objects when it is planned, and collected young.
 */
export class AnkiReviews {
  readonly length: number
  private readonly numbers: { ids: Float64Array; cardIds: Float64Array; small: Int32Array }

  /** `small`: ease, interval, last interval, factor, time and type of each review, in that order. */
  constructor(ids: Float64Array, cardIds: Float64Array, small: Int32Array) {
    this.length = ids.length
    this.numbers = { ids, cardIds, small }
  }

  private at(index: number): AnkiReview {
    const { ids, cardIds, small } = this.numbers
    const at = index * SMALL_FIELDS
    return {
      id: ids[index] as number,
      cardId: cardIds[index] as number,
      ease: small[at] as number,
      interval: small[at + 1] as number,
      lastInterval: small[at + 2] as number,
      factor: small[at + 3] as number,
      time: small[at + 4] as number,
      type: small[at + 5] as number,
    }
  }

  /** The card's reviews, oldest first (found by halving: the card ids are sorted). */
  ofCard(cardId: number): AnkiReview[] {
    const { cardIds } = this.numbers
    let low = 0
    let high = this.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((cardIds[middle] as number) < cardId) low = middle + 1
      else high = middle
    }
    const reviews: AnkiReview[] = []
    for (let index = low; index < this.length && cardIds[index] === cardId; index++) reviews.push(this.at(index))
    return reviews
  }

  /** Every review, by time (what the tests compare). */
  all(): AnkiReview[] {
    return Array.from({ length: this.length }, (_, index) => this.at(index)).sort((a, b) => a.id - b.id)
  }
}

/** The Int32 fields of a packed review (AnkiReviews). */
export const SMALL_FIELDS = 6

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
  reviews: AnkiReviews
  media: AnkiMedia[]
}
