import { type SQL, and, asc, count, eq, ilike, inArray, or, sql } from 'drizzle-orm'
import type { z } from 'zod/mini'
import {
  type CanDoSet,
  type CanDoStatement,
  type CanDoStatementList,
  SKILLS,
  type Skill,
  type StatementLanguage,
  STATEMENTS_PER_CELL_MAX,
} from '@/shared/can-do'
import type {
  StatementListQuery,
  statementInputSchema,
  statementOrderSchema,
  statementPatchSchema,
} from '@/shared/can-do-schemas'
import type { CanDoNotice } from '@/shared/live'
import type { Db } from '@/server/db/client'
import { FOREIGN_KEY_VIOLATION, violatedConstraint } from '@/server/db/errors'
import { type AuditRecord, recordAudit } from '@/server/audit/record'
import { canDoStatement, languageLevel } from '@/server/db/schema'
import { publishEvent } from '@/server/events/bus'
import type { SessionUser } from '@/server/http/context'
import { ApiError } from '@/server/http/errors'

type StatementRow = typeof canDoStatement.$inferSelect

export const statementNotFound = () => new ApiError('not_found', 'Statement not found')

const unknownLevel = () =>
  new ApiError('validation_failed', 'The request is not valid.', { levelId: ['This language level does not exist.'] })

function toStatement(row: StatementRow, levelCode: string): CanDoStatement {
  return {
    id: row.id,
    levelId: row.levelId,
    levelCode,
    skill: row.skill as Skill,
    position: row.position,
    text: { en: row.textEn, ru: row.textRu },
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** The skills in their order (SKILLS), for ORDER BY: not alphabetical. */
const skillOrder: SQL = sql`array_position(array[${sql.join(
  SKILLS.map((skill) => sql`${skill}`),
  sql`, `,
)}]::text[], ${canDoStatement.skill})`

/** Level order, then skill order, then position within the cell: how every list shows them. */
const statementOrder = [asc(languageLevel.position), asc(skillOrder), asc(canDoStatement.position), asc(canDoStatement.id)]

const withLevelCode = { statement: canDoStatement, levelCode: languageLevel.code }

// --- Reads ---------------------------------------------------------------------------------------

/** The administrators' table: every statement matching the filters, in order. */
export async function listStatements(db: Db, query: StatementListQuery): Promise<CanDoStatementList> {
  const where: (SQL | undefined)[] = []
  if (query.levelId !== undefined) where.push(eq(canDoStatement.levelId, query.levelId))
  if (query.skill !== undefined) where.push(eq(canDoStatement.skill, query.skill))
  if (query.q) {
    // `%` and `_` in the search are literal.
    const pattern = `%${query.q.replace(/[\\%_]/g, '\\$&')}%`
    where.push(or(ilike(canDoStatement.textEn, pattern), ilike(canDoStatement.textRu, pattern)))
  }
  const rows = await db
    .select(withLevelCode)
    .from(canDoStatement)
    .innerJoin(languageLevel, eq(languageLevel.id, canDoStatement.levelId))
    .where(and(...where))
    .orderBy(...statementOrder)
  return { items: rows.map((row) => toStatement(row.statement, row.levelCode)), total: rows.length }
}

/** What a learner is asked, in one language: the levels in order and every statement. */
export async function statementSet(db: Db, lang: StatementLanguage): Promise<CanDoSet> {
  const [levels, items] = await Promise.all([
    db
      .select({ id: languageLevel.id, code: languageLevel.code, name: languageLevel.name })
      .from(languageLevel)
      .orderBy(asc(languageLevel.position), asc(languageLevel.id)),
    db
      .select({
        id: canDoStatement.id,
        levelId: canDoStatement.levelId,
        skill: canDoStatement.skill,
        position: canDoStatement.position,
        text: lang === 'ru' ? canDoStatement.textRu : canDoStatement.textEn,
      })
      .from(canDoStatement)
      .innerJoin(languageLevel, eq(languageLevel.id, canDoStatement.levelId))
      .orderBy(...statementOrder),
  ])
  return { lang, levels, items: items.map((item) => ({ ...item, skill: item.skill as Skill })) }
}

// --- Changes -------------------------------------------------------------------------------------

/** Any 64-bit key would do: "lingua" in ASCII, then 4 (see LEVEL_ORDER_LOCK_KEY in levels/store.ts). */
const STATEMENT_ORDER_LOCK_KEY = 0x6c696e6775610004n

/**
 * Serializes the changes of positions (add, delete, reorder, import), so that every cell stays
 * 0..n-1; held until the transaction ends. Edits of the texts go on meanwhile (see levels/store.ts
 * for why not a table lock).
 */
async function lockStatementOrder(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${STATEMENT_ORDER_LOCK_KEY.toString()})`)
}

/**
 * Records the change in the audit log and tells every open screen, when the transaction `tx`
 * commits: its last statements (see publishEvent).
 */
async function recordAndAnnounce(
  tx: Db,
  actor: SessionUser,
  record: Omit<AuditRecord, 'action' | 'targetType'> & { action: CanDoNotice['action'] },
  id: number | null,
): Promise<void> {
  await recordAudit(tx, actor, {
    ...record,
    action: `can-do.${record.action}`,
    targetType: id === null ? 'can_do_statements' : 'can_do_statement',
  })
  await publishEvent(tx, { type: 'can-do', data: { action: record.action, id } })
}

/** The statements of one cell, in order. */
async function cellRows(tx: Db, levelId: number, skill: Skill): Promise<StatementRow[]> {
  return tx
    .select()
    .from(canDoStatement)
    .where(and(eq(canDoStatement.levelId, levelId), eq(canDoStatement.skill, skill)))
    .orderBy(asc(canDoStatement.position), asc(canDoStatement.id))
}

/** The code of a level, locked against its deletion until the transaction ends; 400 if gone. */
async function lockedLevelCode(tx: Db, levelId: number): Promise<string> {
  const [level] = await tx
    .select({ code: languageLevel.code })
    .from(languageLevel)
    .where(eq(languageLevel.id, levelId))
    .for('key share')
  if (!level) throw unknownLevel()
  return level.code
}

const cellFull = () =>
  new ApiError('conflict', `This level and skill already have ${STATEMENTS_PER_CELL_MAX} statements, the most there can be.`)

export function createStatement(
  db: Db,
  input: z.output<typeof statementInputSchema>,
  actor: SessionUser,
): Promise<CanDoStatement> {
  return db.transaction(async (tx) => {
    await lockStatementOrder(tx)
    const levelCode = await lockedLevelCode(tx, input.levelId)
    const [counted] = await tx
      .select({ statements: count() })
      .from(canDoStatement)
      .where(and(eq(canDoStatement.levelId, input.levelId), eq(canDoStatement.skill, input.skill)))
    const position = counted?.statements ?? 0
    if (position >= STATEMENTS_PER_CELL_MAX) throw cellFull()
    const [row] = await tx
      .insert(canDoStatement)
      .values({
        levelId: input.levelId,
        skill: input.skill,
        // Last in its cell: positions are 0..n-1.
        position,
        textEn: input.text.en,
        textRu: input.text.ru,
        createdBy: actor.id,
        updatedBy: actor.id,
      })
      .returning()
    const statement = toStatement(row as StatementRow, levelCode)
    await recordAndAnnounce(tx, actor, { action: 'create', targetId: String(statement.id), before: null, after: statement }, statement.id)
    return statement
  })
}

/** Joined to its level's code, locked first (the audit's exact "before"). */
async function lockedStatement(tx: Db, id: number) {
  const [found] = await tx
    .select(withLevelCode)
    .from(canDoStatement)
    .innerJoin(languageLevel, eq(languageLevel.id, canDoStatement.levelId))
    .where(eq(canDoStatement.id, id))
    .for('update', { of: canDoStatement })
  if (!found) throw statementNotFound()
  return found
}

export function updateStatement(
  db: Db,
  id: number,
  { version, text }: z.output<typeof statementPatchSchema>,
  actor: SessionUser,
): Promise<CanDoStatement> {
  return db.transaction(async (tx) => {
    const before = await lockedStatement(tx, id)
    // The precondition: the version the client read (a reorder does not change it).
    const [row] = await tx
      .update(canDoStatement)
      .set({
        ...(text?.en === undefined ? {} : { textEn: text.en }),
        ...(text?.ru === undefined ? {} : { textRu: text.ru }),
        version: sql`${canDoStatement.version} + 1`,
        updatedAt: sql`now()`,
        updatedBy: actor.id,
      })
      .where(and(eq(canDoStatement.id, id), eq(canDoStatement.version, version)))
      .returning()
    if (!row) throw new ApiError('conflict', 'This statement was changed by someone else.')
    const statement = toStatement(row, before.levelCode)
    await recordAndAnnounce(
      tx,
      actor,
      { action: 'update', targetId: String(id), before: toStatement(before.statement, before.levelCode), after: statement },
      id,
    )
    return statement
  })
}

/** Renumbers one cell 0..n-1 in its current order, writing only the rows that move. */
async function compactCell(tx: Db, levelId: number, skill: string): Promise<void> {
  await tx.execute(sql`
    update ${canDoStatement} set position = ranked.position
    from (
      select id, row_number() over (order by position, id) - 1 as position from ${canDoStatement}
      where level_id = ${levelId} and skill = ${skill}
    ) as ranked
    where ${canDoStatement.id} = ranked.id and ${canDoStatement.position} <> ranked.position`)
}

/** Deletes a statement; the answers given to it go with it (a result keeps its levels as text). */
export async function deleteStatement(db: Db, id: number, actor: SessionUser): Promise<void> {
  await db.transaction(async (tx) => {
    await lockStatementOrder(tx)
    const before = await lockedStatement(tx, id)
    await tx.delete(canDoStatement).where(eq(canDoStatement.id, id))
    await compactCell(tx, before.statement.levelId, before.statement.skill)
    await recordAndAnnounce(
      tx,
      actor,
      { action: 'delete', targetId: String(id), before: toStatement(before.statement, before.levelCode), after: null },
      id,
    )
  })
}

/** Puts one cell in the order of `ids`, which must name each of its statements once. */
export function reorderCell(
  db: Db,
  { levelId, skill, ids }: z.output<typeof statementOrderSchema>,
  actor: SessionUser,
): Promise<CanDoStatement[]> {
  return db.transaction(async (tx) => {
    await lockStatementOrder(tx)
    const levelCode = await lockedLevelCode(tx, levelId)
    const before = await cellRows(tx, levelId, skill)
    const known = new Set(before.map((row) => row.id))
    if (ids.length !== known.size || !ids.every((id) => known.has(id))) {
      // Someone added or deleted a statement of this cell since the client read it.
      throw new ApiError('conflict', 'The statements changed; reload and try again.')
    }
    // One statement for the whole order; integers only, so the array literal is safe.
    await tx.execute(sql`
      update ${canDoStatement} set position = wanted.ordinality - 1
      from unnest(${`{${ids.join(',')}}`}::int[]) with ordinality as wanted(id, ordinality)
      where ${canDoStatement.id} = wanted.id and ${canDoStatement.position} <> wanted.ordinality - 1`)
    const after = await cellRows(tx, levelId, skill)
    const cell = `${levelCode} ${skill}`
    await recordAndAnnounce(
      tx,
      actor,
      { action: 'reorder', targetId: cell, before: before.map(({ id }) => id), after: after.map(({ id }) => id) },
      null,
    )
    return after.map((row) => toStatement(row, levelCode))
  })
}

/** A row of an import, checked (csv.ts): its level by id, and where it goes in its cell. */
export interface ImportRow {
  levelId: number
  skill: Skill
  textEn: string
  textRu: string
}

/** What an import checks a file against: the levels by code, and what each cell holds now. */
export interface ImportContext {
  levels: Map<string, { id: number; code: string }>
  /** By `${levelId} ${skill}`: the statements' English texts (compared ignoring case). */
  cells: Map<string, string[]>
}

/** Rows inserted per statement by an import. */
const IMPORT_CHUNK = 250

export const cellKey = (levelId: number, skill: string) => `${levelId} ${skill}`

/** The levels and the cells' texts, as an import checks them (under the order lock, when writing). */
export async function importContext(db: Db): Promise<ImportContext> {
  const [levels, statements] = await Promise.all([
    db.select({ id: languageLevel.id, code: languageLevel.code }).from(languageLevel),
    db
      .select({ levelId: canDoStatement.levelId, skill: canDoStatement.skill, textEn: canDoStatement.textEn })
      .from(canDoStatement)
      .orderBy(asc(canDoStatement.position)),
  ])
  const cells = new Map<string, string[]>()
  for (const row of statements) {
    const key = cellKey(row.levelId, row.skill)
    cells.set(key, [...(cells.get(key) ?? []), row.textEn])
  }
  return { levels: new Map(levels.map((level) => [level.code.toLowerCase(), level])), cells }
}

/**
 * Writes the checked rows of an import, in one transaction, each appended to its cell in the
 * order given. `check` runs first under the order lock, on the cells as they are then, so that a
 * change made since the dry run is seen: it answers the rows, or refuses the file.
 */
export async function importStatements(
  db: Db,
  check: (context: ImportContext) => ImportRow[],
  actor: SessionUser,
): Promise<number> {
  try {
    return await db.transaction(async (tx) => {
      await lockStatementOrder(tx)
      const context = await importContext(tx)
      const rows = check(context)
      if (rows.length === 0) return 0
      // The levels stay until the commit: a level deleted meanwhile waits for this import, or
      // this import fails on its foreign key.
      await tx
        .select({ id: languageLevel.id })
        .from(languageLevel)
        .where(inArray(languageLevel.id, [...new Set(rows.map((row) => row.levelId))]))
        .for('key share')
      const next = new Map<string, number>()
      const values = rows.map((row) => {
        const key = cellKey(row.levelId, row.skill)
        const position = next.get(key) ?? context.cells.get(key)?.length ?? 0
        next.set(key, position + 1)
        return { ...row, position, createdBy: actor.id, updatedBy: actor.id }
      })
      // In chunks: PostgreSQL takes at most 65,535 parameters in one statement, and each query
      // must end well within the pool's query timeout (db/postgres.ts) on a busy machine.
      for (let start = 0; start < values.length; start += IMPORT_CHUNK) {
        await tx.insert(canDoStatement).values(values.slice(start, start + IMPORT_CHUNK))
      }
      await recordAndAnnounce(tx, actor, { action: 'import', targetId: null, before: null, after: { statements: rows.length } }, null)
      return rows.length
    })
  } catch (error) {
    if (violatedConstraint(error, FOREIGN_KEY_VIOLATION) === 'can_do_statement_level_id_language_level_id_fk') {
      throw new ApiError('conflict', 'A level of the file was deleted meanwhile; check the file again.')
    }
    throw error
  }
}

/** Every statement in order, for the CSV export. */
export async function exportRows(db: Db) {
  return db
    .select({
      level: languageLevel.code,
      skill: canDoStatement.skill,
      position: canDoStatement.position,
      textEn: canDoStatement.textEn,
      textRu: canDoStatement.textRu,
    })
    .from(canDoStatement)
    .innerJoin(languageLevel, eq(languageLevel.id, canDoStatement.levelId))
    .orderBy(...statementOrder)
}
