import { type SQL, sql } from 'drizzle-orm'
import { pickChoices } from '@/shared/answers'
import { answerable, reviewHash, seededRandom } from '@/shared/practice-ways'
import type { Db } from '@/server/db/client'
import type { word } from '@/server/db/schema'

/**
 * "Choose the answer" (PRODUCT §13): the four texts of each card of a queue, the other three from
 * the card's level (in its language) or deck. One statement for the whole queue, bounded: for each
 * level or deck in it, the words nearest (by id) its first card in the queue, `NEIGHBOURS` on
 * either side, each side one range of `word_level_idx` (level_id, id) or `word_deck_idx` (deck_id,
 * id). docs/decisions/0036-ways-to-practise.md.
 */

/** Words read on each side of a group's first card: enough for three of one part of speech, usually. */
const NEIGHBOURS = 16

type WordRecord = typeof word.$inferSelect

interface Group {
  level_id: number | null
  deck_id: number | null
  language: string
  pivot: number
}

interface Candidate {
  level_id: number | null
  deck_id: number | null
  language: string
  text: string
  part_of_speech: string | null
  ordinal: number
  rich: boolean
}

const groupKey = (levelId: number | null, deckId: number | null, language: string) =>
  deckId !== null ? `d${deckId}` : `l${levelId}:${language}`

/** The choices of each card of the queue that is answerable, by word id (none without candidates). */
export async function choicesOf(db: Db, cards: readonly { word: WordRecord; reps: number }[]): Promise<Map<number, string[]>> {
  const asked = cards.filter(({ word }) => answerable({ text: word.text, html: htmlOf(word) }))
  const groups = new Map<string, Group>()
  for (const { word } of asked) {
    const key = groupKey(word.levelId, word.deckId, word.language)
    const group = groups.get(key)
    if (!group) groups.set(key, { level_id: word.deckId === null ? word.levelId : null, deck_id: word.deckId, language: word.language, pivot: word.id })
    else group.pivot = Math.min(group.pivot, word.id)
  }
  const chosen = new Map<number, string[]>()
  if (groups.size === 0) return chosen
  // The side of the pivot as a row comparison on the index's columns, ordered as the index is:
  // each side is one range of word_level_idx or word_deck_idx, never the primary key read with a
  // filter (which the planner picks for a plain `id > pivot` when the table is small, and which
  // would pass every other word when a level's words are few among millions of deck cards).
  // Only the kinds of group the queue has are read.
  const sides = (column: 'level_id' | 'deck_id', where: SQL) =>
    (['>', '<'] as const).map((direction) => {
      const order = direction === '>' ? sql.raw(`${column}, id`) : sql.raw(`${column} desc, id desc`)
      const key = sql.raw(column)
      return sql`(select level_id, deck_id, language, text, part_of_speech, ordinal,
          coalesce(front_html ~ '<img|<audio-ref' or back_html ~ '<img|<audio-ref', false) as rich
        from word where ${where} and (${key}, id) ${sql.raw(direction)} (g.${key}, g.pivot) order by ${order} limit ${NEIGHBOURS})`
    })
  const all = [...groups.values()]
  const parts = [
    ...(all.some((group) => group.level_id !== null) ? sides('level_id', sql`level_id = g.level_id and language = g.language`) : []),
    ...(all.some((group) => group.deck_id !== null) ? sides('deck_id', sql`deck_id = g.deck_id`) : []),
  ]
  // Both drivers (pg, PGlite) answer `rows`.
  const answer: unknown = await db.execute(sql`select w.* from jsonb_to_recordset(${JSON.stringify(all)}::jsonb)
      as g(level_id integer, deck_id integer, language text, pivot integer)
    cross join lateral (${sql.join(parts, sql` union all `)}) w`)
  const { rows } = answer as { rows: Candidate[] }
  const pools = new Map<string, Candidate[]>()
  for (const row of rows) {
    const key = groupKey(row.level_id, row.deck_id, row.language)
    pools.set(key, [...(pools.get(key) ?? []), row])
  }
  for (const { word, reps } of asked) {
    // A deck's reverse cards ask the other side: their choices are reverse cards' texts too.
    const candidates = (pools.get(groupKey(word.levelId, word.deckId, word.language)) ?? []).filter(
      (other) => !other.rich && (other.ordinal === 0) === (word.ordinal === 0) && answerable({ text: other.text, html: null }),
    )
    const picked = pickChoices<Pick<Candidate, 'text' | 'part_of_speech'>>({ text: word.text, part_of_speech: word.partOfSpeech }, candidates, {
      key: (item) => item.text,
      partOfSpeech: (item) => item.part_of_speech,
      random: seededRandom(reviewHash(word.id, reps)),
    })
    if (picked.length === 4) chosen.set(word.id, picked.map((item) => item.text))
  }
  return chosen
}

/** An imported card's sides as cleaned HTML; null for a word written as text. */
export const htmlOf = (found: WordRecord) =>
  found.frontHtml !== null && found.backHtml !== null ? { front: found.frontHtml, back: found.backHtml } : null
