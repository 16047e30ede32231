import { type SQL, sql } from 'drizzle-orm'
import { choiceKey, pickChoices } from '@/shared/answers'
import { answerable, reviewHash, seededRandom } from '@/shared/practice-ways'
import type { Db } from '@/server/db/client'
import { KeptReads } from '@/server/events/kept-reads'
import type { word } from '@/server/db/schema'

/**
 * "Choose the answer" (PRODUCT §13): the four texts of each card of a queue, the other three from
 * the card's level (in its language) or deck: for each level or deck in the queue, the words nearest
 * (by id) its first card in the queue, `NEIGHBOURS` on either side. A level's words come from
 * `LevelWordPools` (in memory until a word or level changes); a deck's, and those of a level too
 * large to keep, from one statement for the whole queue, each side one range of `word_level_idx`
 * (level_id, id) or `word_deck_idx` (deck_id, id). docs/decisions/0036-ways-to-practise.md.
 */

/** Words read on each side of a group's first card: enough for three of one part of speech, usually. */
const NEIGHBOURS = 16

/** The words of a level kept in memory at most (a larger level is read by the statement). */
const POOL_MAX_WORDS = 20_000

type WordRecord = typeof word.$inferSelect

interface Group {
  level_id: number | null
  deck_id: number | null
  language: string
  pivot: number
}

/** A word that may be one of another card's choices (the statement's row). */
interface Candidate {
  id: number
  level_id: number | null
  deck_id: number | null
  language: string
  text: string
  part_of_speech: string | null
  ordinal: number
  rich: boolean
}

const candidateColumns = sql.raw(`id, level_id, deck_id, language, text, part_of_speech, ordinal,
  coalesce(front_html ~ '<img|<audio-ref' or back_html ~ '<img|<audio-ref', false) as rich`)

/**
 * The words of each level in each language, by id, as the candidates of its cards' choices: read
 * whole once, kept until a word or a level changes on any instance (KeptReads); null for a level
 * of more than POOL_MAX_WORDS words.
 */
export class LevelWordPools extends KeptReads<Judged[] | null> {
  constructor() {
    super((event) => event.type === 'words' || event.type === 'levels', 100)
  }

  pool(db: Db, levelId: number, language: string): Promise<Judged[] | null> {
    return this.read(`${levelId}:${language}`, async () => {
      const answer: unknown = await db.execute(sql`select ${candidateColumns} from word
        where level_id = ${levelId} and language = ${language} order by level_id, id limit ${POOL_MAX_WORDS + 1}`)
      const { rows } = answer as { rows: Candidate[] }
      return rows.length > POOL_MAX_WORDS ? null : judged(rows)
    })
  }
}

/** The NEIGHBOURS words on either side (by id) of `pivot` in `pool` (sorted by id), in the statement's order. */
function neighbours(pool: readonly Judged[], pivot: number): Judged[] {
  let low = 0
  let high = pool.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((pool[middle] as Judged).id < pivot) low = middle + 1
    else high = middle
  }
  const after = pool[low]?.id === pivot ? low + 1 : low
  // Nearest first on each side, the larger ids first.
  return [...pool.slice(after, after + NEIGHBOURS), ...pool.slice(Math.max(0, low - NEIGHBOURS), low).reverse()]
}

const groupKey = (levelId: number | null, deckId: number | null, language: string) =>
  deckId !== null ? `d${deckId}` : `l${levelId}:${language}`

/**
 * The candidates of the groups `pools` does not hold (decks, levels too large), in one statement.
 * The side of the pivot as a row comparison on the index's columns, ordered as the index is: each
 * side is one range of word_level_idx or word_deck_idx, never the primary key read with a filter
 * (which the planner picks for a plain `id > pivot` when the table is small, and which would pass
 * every other word when a level's words are few among millions of deck cards). Only the kinds of
 * group asked for are read.
 */
async function readNeighbours(db: Db, groups: readonly Group[]): Promise<Candidate[]> {
  if (groups.length === 0) return []
  const sides = (column: 'level_id' | 'deck_id', where: SQL) =>
    (['>', '<'] as const).map((direction) => {
      const order = direction === '>' ? sql.raw(`${column}, id`) : sql.raw(`${column} desc, id desc`)
      const key = sql.raw(column)
      return sql`(select ${candidateColumns}
        from word where ${where} and (${key}, id) ${sql.raw(direction)} (g.${key}, g.pivot) order by ${order} limit ${NEIGHBOURS})`
    })
  const parts = [
    ...(groups.some((group) => group.level_id !== null) ? sides('level_id', sql`level_id = g.level_id and language = g.language`) : []),
    ...(groups.some((group) => group.deck_id !== null) ? sides('deck_id', sql`deck_id = g.deck_id`) : []),
  ]
  // Both drivers (pg, PGlite) answer `rows`.
  const answer: unknown = await db.execute(sql`select w.* from jsonb_to_recordset(${JSON.stringify(groups)}::jsonb)
      as g(level_id integer, deck_id integer, language text, pivot integer)
    cross join lateral (${sql.join(parts, sql` union all `)}) w`)
  return (answer as { rows: Candidate[] }).rows
}

/** A candidate judged: its text as compared (`choiceKey`), or null when it cannot be a choice. */
type Judged = Candidate & { compared: string | null }

/** Judged once each: a level's words once for all the queues that read them. */
const judged = (candidates: readonly Candidate[]): Judged[] =>
  candidates.map((other) => ({ ...other, compared: !other.rich && answerable({ text: other.text, html: null }) ? choiceKey(other.text) : null }))

/** A group's choices: for its front cards (ordinal 0) and its reverse ones. */
interface Choosable {
  front: Judged[]
  reverse: Judged[]
}

function choosable(candidates: readonly Judged[]): Choosable {
  const usable = candidates.filter((other) => other.compared !== null)
  return { front: usable.filter((other) => other.ordinal === 0), reverse: usable.filter((other) => other.ordinal !== 0) }
}

/** The choices of each card of the queue that is answerable, by word id (none without candidates). */
export async function choicesOf(db: Db, pools: LevelWordPools, cards: readonly { word: WordRecord; reps: number }[]): Promise<Map<number, string[]>> {
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
  const candidates = new Map<string, Choosable>()
  const unpooled: Group[] = []
  await Promise.all(
    [...groups].map(async ([key, group]) => {
      const pool = group.level_id === null ? null : await pools.pool(db, group.level_id, group.language)
      if (pool) candidates.set(key, choosable(neighbours(pool, group.pivot)))
      else unpooled.push(group)
    }),
  )
  const read = new Map<string, Candidate[]>()
  for (const row of await readNeighbours(db, unpooled)) {
    const key = groupKey(row.level_id, row.deck_id, row.language)
    const rows = read.get(key)
    if (rows) rows.push(row)
    else read.set(key, [row])
  }
  for (const [key, rows] of read) candidates.set(key, choosable(judged(rows)))
  for (const { word, reps } of asked) {
    // A deck's reverse cards ask the other side: their choices are reverse cards' texts too.
    const group = candidates.get(groupKey(word.levelId, word.deckId, word.language))
    const others = (word.ordinal === 0 ? group?.front : group?.reverse) ?? []
    const answer = { text: word.text, part_of_speech: word.partOfSpeech, compared: choiceKey(word.text) }
    const picked = pickChoices<Pick<Judged, 'text' | 'part_of_speech' | 'compared'>>(answer, others, {
      key: (item) => item.text,
      compared: (item) => item.compared as string,
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
