import { and, asc, eq, gt } from 'drizzle-orm'
import type { Db } from '@/server/db/client'
import { deck, deckNote, learnerMedia, word } from '@/server/db/schema'
import type { DataExport } from '@/server/api/data-export/docs'

/** A learner's decks and media (as names and hashes), for their copy of their data. */
export async function exportedDecks(db: Db, userId: string): Promise<Pick<DataExport, 'decks' | 'media'>> {
  const [decks, media] = await Promise.all([
    db.select().from(deck).where(eq(deck.userId, userId)).orderBy(asc(deck.id)),
    db
      .select({ hash: learnerMedia.hash, name: learnerMedia.name, type: learnerMedia.type, size: learnerMedia.size, createdAt: learnerMedia.createdAt })
      .from(learnerMedia)
      .where(eq(learnerMedia.userId, userId))
      .orderBy(asc(learnerMedia.createdAt), asc(learnerMedia.hash)),
  ])
  return {
    decks: decks.map((row) => ({
      id: row.id,
      name: row.name,
      language: row.language,
      description: row.description,
      practiseDaily: row.practiseDaily,
      createdAt: row.createdAt.toISOString(),
    })),
    media: media.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
  }
}

const BATCH = 1000

/** Every card of the learner's decks with its note, page by page. */
export async function* exportedDeckCards(db: Db, userId: string): AsyncGenerator<DataExport['deckCards']> {
  let after = 0
  for (;;) {
    const rows = await db
      .select({ word, note: deckNote })
      .from(word)
      .innerJoin(deckNote, eq(deckNote.id, word.noteId))
      .where(and(eq(deckNote.userId, userId), gt(word.id, after)))
      .orderBy(asc(word.id))
      .limit(BATCH)
    if (rows.length === 0) return
    yield rows.map(({ word: card, note }) => ({
      deckId: note.deckId,
      noteId: note.id,
      guid: note.guid,
      kind: note.kind,
      wordId: card.id,
      ordinal: card.ordinal,
      text: card.text,
      translationEn: card.translationEn,
      translationRu: card.translationRu,
      example: card.example,
      partOfSpeech: card.partOfSpeech,
      notes: note.notes,
      tags: note.tags,
      fields: note.fields,
    }))
    after = rows.at(-1)?.word.id ?? after
    if (rows.length < BATCH) return
  }
}
