import { and, asc, count, eq, ilike, isNotNull, or, sql } from 'drizzle-orm'
import type { z } from 'zod/mini'
import type { WordsNotice } from '@/shared/live'
import type { PartOfSpeech, Word, WordImportResult, WordPage } from '@/shared/words'
import type { WordListQuery, wordInputSchema, wordPatchSchema } from '@/shared/words-schemas'
import { recordAudit } from '@/server/audit/record'
import type { Db } from '@/server/db/client'
import { UNIQUE_VIOLATION, violatedConstraint } from '@/server/db/errors'
import { languageLevel, word } from '@/server/db/schema'
import { publishEvent } from '@/server/events/bus'
import type { SessionUser } from '@/server/http/context'
import { refusal } from '@/server/http/csv'
import { ApiError } from '@/server/http/errors'
import { levelNotFound } from '@/server/api/levels/store'
import type { ParsedFile, WordRow } from './csv'

type WordRecord = typeof word.$inferSelect

/** A word of a level, never a learner's deck card: administrators edit only those (404 otherwise). */
const courseWord = (id: number) => and(eq(word.id, id), isNotNull(word.levelId))

export const wordNotFound = () => new ApiError('not_found', 'Word not found')

/**
 * A word as the API answers it: without who made it (the audit log says). Only course words come
 * here (read by level, or by `courseWord`): their level is set, and they have no deck.
 */
function toWord({ createdBy: _c, updatedBy: _u, deckId: _d, noteId: _n, ordinal: _o, frontHtml: _f, backHtml: _b, practised: _p, ...row }: WordRecord): Word {
  return {
    ...row,
    levelId: row.levelId ?? 0,
    // Only the API writes it, from partsOfSpeech.
    partOfSpeech: row.partOfSpeech as PartOfSpeech | null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** Locks the level (until the transaction ends: its deletion waits), or 404. */
async function lockLevel(tx: Db, levelId: number): Promise<void> {
  const [level] = await tx.select({ id: languageLevel.id }).from(languageLevel).where(eq(languageLevel.id, levelId)).for('share')
  if (!level) throw levelNotFound()
}

/** Tells every open screen that a level's words changed; the last statement of the change. */
function announce(tx: Db, data: WordsNotice): Promise<void> {
  return publishEvent(tx, { type: 'words', data })
}

const duplicate = 'A word with this text and part of speech already exists in this language.'

/** The same word twice (23505 on the unique index) is the client's conflict, however it raced. */
async function refusingDuplicate<T>(change: Promise<T>): Promise<T> {
  try {
    return await change
  } catch (error) {
    if (violatedConstraint(error, UNIQUE_VIOLATION) === 'word_language_text_idx') {
      throw new ApiError('conflict', duplicate, { text: [duplicate] })
    }
    throw error
  }
}

// --- Reads ---------------------------------------------------------------------------------------

export async function listWords(db: Db, levelId: number, query: WordListQuery): Promise<WordPage> {
  const { page, pageSize } = query
  const pattern = query.q ? `%${query.q.replace(/[\\%_]/g, '\\$&')}%` : undefined
  const where = and(
    eq(word.levelId, levelId),
    pattern ? or(ilike(word.text, pattern), ilike(word.translationEn, pattern), ilike(word.translationRu, pattern)) : undefined,
  )
  const [[level], rows, [counted]] = await Promise.all([
    db.select({ id: languageLevel.id }).from(languageLevel).where(eq(languageLevel.id, levelId)),
    db.select().from(word).where(where).orderBy(asc(word.id)).limit(pageSize).offset((page - 1) * pageSize),
    db.select({ total: count() }).from(word).where(where),
  ])
  if (!level) throw levelNotFound()
  return { items: rows.map(toWord), total: counted?.total ?? 0, page, pageSize }
}

/** Every word of a level in the file's columns, in their order (the export). */
export async function levelWordRows(db: Db, levelId: number): Promise<WordRow[]> {
  const [level] = await db.select({ id: languageLevel.id }).from(languageLevel).where(eq(languageLevel.id, levelId))
  if (!level) throw levelNotFound()
  const rows = await db.select().from(word).where(eq(word.levelId, levelId)).orderBy(asc(word.id))
  return rows.map((row) => ({ ...toWord(row), language: row.language as WordRow['language'] }))
}

// --- Changes -------------------------------------------------------------------------------------

export function createWord(db: Db, levelId: number, input: z.output<typeof wordInputSchema>, actor: SessionUser): Promise<Word> {
  return refusingDuplicate(
    db.transaction(async (tx) => {
      await lockLevel(tx, levelId)
      const [row] = await tx.insert(word).values({ ...input, levelId, createdBy: actor.id, updatedBy: actor.id }).returning()
      const created = toWord(row as WordRecord)
      await recordAudit(tx, actor, { action: 'word.create', targetType: 'word', targetId: String(created.id), before: null, after: created })
      await announce(tx, { action: 'create', levelId, id: created.id })
      return created
    }),
  )
}

export function updateWord(
  db: Db,
  id: number,
  { version, ...changes }: z.output<typeof wordPatchSchema>,
  actor: SessionUser,
): Promise<Word> {
  return refusingDuplicate(
    db.transaction(async (tx) => {
      const [before] = await tx.select().from(word).where(courseWord(id)).for('update')
      if (!before) throw wordNotFound()
      const [row] = await tx
        .update(word)
        .set({ ...changes, version: sql`${word.version} + 1`, updatedAt: sql`now()`, updatedBy: actor.id })
        .where(and(courseWord(id), eq(word.version, version)))
        .returning()
      if (!row) throw new ApiError('conflict', 'This word was changed by someone else.')
      const updated = toWord(row)
      await recordAudit(tx, actor, { action: 'word.update', targetType: 'word', targetId: String(id), before: toWord(before), after: updated })
      await announce(tx, { action: 'update', levelId: row.levelId ?? 0, id })
      return updated
    }),
  )
}

/** Deletes a word with the cards of it; the review logs stay (their days keep their counts). */
export async function deleteWord(db: Db, id: number, actor: SessionUser): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(word).where(courseWord(id)).returning()
    if (!row) throw wordNotFound()
    await recordAudit(tx, actor, { action: 'word.delete', targetType: 'word', targetId: String(id), before: toWord(row), after: null })
    await announce(tx, { action: 'delete', levelId: row.levelId ?? 0, id })
  })
}

/** The key a file's row and a stored word are matched on (the unique index's). */
const keyOf = (row: { language: string; text: string; partOfSpeech: string | null }) =>
  `${row.language}\u0000${row.text.toLowerCase()}\u0000${row.partOfSpeech ?? ''}`

/**
 * Imports checked rows into a level: a row naming a word this level has updates it, a new one is
 * created; a word of another level, or the same word twice in the file, is refused. With any
 * refusal (`refused` from reading the file, or here) nothing is written; nor on a dry run.
 */
export async function importWords(
  db: Db,
  levelId: number,
  file: ParsedFile,
  dryRun: boolean,
  actor: SessionUser,
): Promise<WordImportResult> {
  const refused = [...file.refused]
  const outcome = await db.transaction(async (tx) => {
    await lockLevel(tx, levelId)
    const keys = file.rows.map(({ row }) => ({ language: row.language, text: row.text.toLowerCase(), pos: row.partOfSpeech ?? '' }))
    const existing = keys.length === 0 ? [] : await tx
      .select({ row: word, levelCode: languageLevel.code })
      .from(word)
      .innerJoin(languageLevel, eq(languageLevel.id, word.levelId))
      .where(sql`(${word.language}, lower(${word.text}), coalesce(${word.partOfSpeech}, '')) in (
        select language, text, pos from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(language text, text text, pos text))`)
    const stored = new Map(existing.map((found) => [keyOf(found.row), found]))
    const seen = new Map<string, number>()
    const creates: WordRow[] = []
    const updates: (WordRow & { id: number })[] = []
    let unchanged = 0
    for (const { line, row } of file.rows) {
      const key = keyOf(row)
      const earlier = seen.get(key)
      if (earlier !== undefined) {
        refused.push(refusal(line, [{ code: 'sameAsLine', line: earlier }]))
        continue
      }
      seen.set(key, line)
      const found = stored.get(key)
      if (!found) creates.push(row)
      else if (found.row.levelId !== levelId) refused.push(refusal(line, [{ code: 'wordOfLevel', level: found.levelCode }]))
      else if (
        found.row.translationEn === row.translationEn &&
        found.row.translationRu === row.translationRu &&
        found.row.example === row.example &&
        found.row.text === row.text
      ) unchanged++
      else updates.push({ ...row, id: found.row.id })
    }
    const result = { dryRun, rows: file.rows.length + file.refused.length, created: creates.length, updated: updates.length, unchanged }
    if (dryRun || refused.length > 0) return result
    // One statement each, whatever the number of rows.
    if (creates.length > 0) {
      await tx.execute(sql`
        insert into ${word} (level_id, language, text, translation_en, translation_ru, example, part_of_speech, created_by, updated_by)
        select ${levelId}, language, text, "translationEn", "translationRu", example, "partOfSpeech", ${actor.id}, ${actor.id}
        from jsonb_to_recordset(${JSON.stringify(creates)}::jsonb)
          as v(language text, text text, "translationEn" text, "translationRu" text, example text, "partOfSpeech" text)`)
    }
    if (updates.length > 0) {
      await tx.execute(sql`
        update ${word} set text = v.text, translation_en = v."translationEn", translation_ru = v."translationRu",
          example = v.example, version = ${word.version} + 1, updated_at = now(), updated_by = ${actor.id}
        from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb)
          as v(id int, text text, "translationEn" text, "translationRu" text, example text)
        where ${word.id} = v.id`)
    }
    if (creates.length + updates.length > 0) {
      await recordAudit(tx, actor, {
        action: 'word.import',
        targetType: 'language_level',
        targetId: String(levelId),
        before: null,
        after: { created: creates.length, updated: updates.length, unchanged },
      })
      await announce(tx, { action: 'import', levelId, id: null })
    }
    return result
  })
  refused.sort((a, b) => a.line - b.line)
  return { ...outcome, refused }
}
