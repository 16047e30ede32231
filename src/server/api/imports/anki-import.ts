import { fieldText, mediaUrl } from '@/shared/card-field'
import type { NoteKind } from '@/shared/decks'
import { MEDIA_FILE_MAX_BYTES } from '@/shared/imports'
import type { Settings } from '@/server/api/practice/settings'
import type { AnkiCard, AnkiNote, AnkiPackage } from './anki/read'
import { replayAnkiCard } from './anki/replay'
import { FieldTooLargeError, cleanField } from './sanitize'
import type { SpillWriter } from './spill'
import type { NoteOutline, PlannedCard, PlannedImport, PlannedNote } from './write'

/**
 * An Anki package made into Lingua's decks, notes, cards and reviews (docs/decisions/0032-decks.md):
 * stock note types by kind (Basic, reversed, optional reversed, typing: front and back; Cloze: one
 * card per number; any other: its first field the front, the second the back, the rest notes), the
 * cards' memory replayed from their history, due on Anki's day; media stored by content first.
 * Runs in the planner's process (anki-planner.ts): no database here, the media are stored through
 * `storeMedia`, the notes go to a spill file.
 */

const clozePattern = /\{\{c(\d+)::([\s\S]*?)(?:::([\s\S]*?))?\}\}/g

/** A cloze card's question (its number blanked, with its hint) and answer (all revealed). */
function clozeSides(html: string, number: number): { front: string; back: string } {
  const front = html.replace(clozePattern, (_, n: string, answer: string, hint?: string) => (Number(n) === number ? `[${hint ?? '…'}]` : answer))
  const back = html.replace(clozePattern, (_, _n: string, answer: string) => answer)
  return { front, back }
}

const kindOf = (kind: string): NoteKind => (kind === 'other' ? 'basic' : (kind as NoteKind))

/** Plain text of a side, at most what a word's column shows well (the HTML keeps the rest). */
const plain = (html: string) => fieldText(html).replace(/\s+/g, ' ').trim().slice(0, 1000)

export interface AnkiPlanContext {
  settings: Pick<Settings, 'fsrsParameters' | 'timeZone'>
  now: Date
  progress: (done: number, total: number) => void
  /** Keeps one media file in the learner's store: its hash, or null when it is not one Lingua shows. */
  storeMedia: (name: string, bytes: Buffer) => Promise<string | null>
  /** Where the planned notes wait for the write: with their histories, too much to hold at once. */
  spill: SpillWriter<PlannedNote>
}

/** What the write needs besides the notes (those are in the spill file). */
export type AnkiPlan = Omit<PlannedImport, 'notes' | 'language'>

/** Reads the package's media into the learner's store: name → hash (those Lingua shows). */
async function storeAllMedia(pkg: AnkiPackage, context: AnkiPlanContext): Promise<{ hashes: Map<string, string>; stored: number }> {
  const hashes = new Map<string, string>()
  let stored = 0
  for (const media of pkg.collection.media) {
    const bytes = await pkg.readMedia(media, MEDIA_FILE_MAX_BYTES).catch((error: unknown) => {
      // One file too large to show is skipped; a damaged package is not.
      if (error instanceof Error && 'code' in error && error.code === 'too_large' && (media.size ?? 0) > MEDIA_FILE_MAX_BYTES) return null
      throw error
    })
    if (!bytes) continue
    const hash = await context.storeMedia(media.name, bytes)
    if (hash) {
      hashes.set(media.name, hash)
      stored++
    }
  }
  return { hashes, stored }
}

export async function planAnkiPackage(pkg: AnkiPackage, context: AnkiPlanContext): Promise<AnkiPlan> {
  const { collection } = pkg
  const { hashes, stored } = await storeAllMedia(pkg, context)
  const media = (name: string) => {
    const hash = hashes.get(name)
    return hash ? mediaUrl(hash) : null
  }
  const noteTypes = new Map(collection.noteTypes.map((type) => [type.id, type]))
  const deckNames = new Map(collection.decks.map((deck) => [deck.id, deck.name]))
  const cardsOfNote = new Map<number, AnkiCard[]>()
  for (const card of collection.cards) cardsOfNote.set(card.noteId, [...(cardsOfNote.get(card.noteId) ?? []), card])

  const outline: NoteOutline[] = []
  const guids = new Set<string>()
  const skipped: { note: string; reason: string }[] = []
  const total = collection.notes.length
  for (const [index, note] of collection.notes.entries()) {
    if (index % 500 === 0) context.progress(index, total)
    const cards = (cardsOfNote.get(note.id) ?? []).sort((a, b) => a.ordinal - b.ordinal)
    const type = noteTypes.get(note.noteTypeId)
    if (guids.has(note.guid)) {
      skipped.push({ note: note.guid, reason: 'another note has the same guid' })
      continue
    }
    if (cards.length === 0 || !type) {
      skipped.push({ note: note.guid, reason: type ? 'it has no cards' : 'its note type is missing' })
      continue
    }
    const planned = planNote(note, type.kind, cards, media, skipped)
    if (!planned) continue
    const firstDeck = cards[0]?.deckId ?? 0
    const deck = { ankiId: firstDeck, name: deckNames.get(firstDeck) ?? 'Default' }
    const plannedCards = planned.cards.map((card) => {
      const anki = cards.find((c) => c.ordinal === card.ordinal) as AnkiCard
      const replayed = replayAnkiCard({
        card: anki,
        reviews: collection.reviews.ofCard(anki.id),
        collectionCreated: collection.created,
        parameters: context.settings.fsrsParameters,
        timeZone: context.settings.timeZone,
        now: context.now,
      })
      return { ...card, replayed }
    })
    guids.add(note.guid)
    outline.push({ guid: note.guid, deck, cards: plannedCards.length })
    const weight = plannedCards.reduce((sum, card) => sum + 1 + card.replayed.reviews.length, 0)
    await context.spill.add({ ...planned, deck, cards: plannedCards }, weight)
  }
  await context.spill.finish()
  context.progress(total, total)
  return { outline, skipped, media: stored }
}

/** One note's fields cleaned and its cards' sides; null (and a reason in `skipped`) when it cannot be kept. */
function planNote(
  note: AnkiNote,
  kind: string,
  cards: AnkiCard[],
  media: (name: string) => string | null,
  skipped: { note: string; reason: string }[],
): (Omit<PlannedNote, 'deck' | 'cards'> & { cards: Omit<PlannedCard, 'replayed'>[] }) | null {
  let fields: string[]
  try {
    fields = note.fields.map((field) => cleanField(field, media).html)
  } catch (error) {
    if (!(error instanceof FieldTooLargeError)) throw error
    skipped.push({ note: note.guid, reason: 'a field is larger than 64 KB' })
    return null
  }
  const [first = '', second = '', ...rest] = fields
  const sides =
    kind === 'cloze'
      ? cards.map((card) => ({ ordinal: card.ordinal, ...clozeSides(first, card.ordinal + 1) }))
      : cards.map((card) => (card.ordinal === 0 ? { ordinal: 0, front: first, back: second } : { ordinal: card.ordinal, front: second, back: first }))
  const usable = sides
    .map((side) => ({ ordinal: side.ordinal, front: plain(side.front), back: plain(side.back), html: { front: side.front, back: side.back } }))
    .filter((side) => side.front !== '' && side.back !== '')
  if (usable.length === 0) {
    skipped.push({ note: note.guid, reason: 'its front or back is empty' })
    return null
  }
  const extra = kind === 'cloze' ? [second, ...rest] : rest
  const notesText = extra.map(plain).filter(Boolean).join('\n').slice(0, 2000) || null
  return { guid: note.guid, ankiId: note.id, kind: kindOf(kind), fields, tags: note.tags.slice(0, 20).map((tag) => tag.slice(0, 50)), notes: notesText, cards: usable }
}
