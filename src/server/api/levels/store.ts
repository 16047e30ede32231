import { type Placeholder, type SQL, and, asc, count, desc, eq, ilike, or, sql } from 'drizzle-orm'
import type { z } from 'zod/mini'
import type {
  LanguageLevel,
  LevelPage,
  LevelSort,
  LevelUsage,
} from '@/shared/levels'
import type {
  LevelListQuery,
  levelInputSchema,
  levelPatchSchema,
} from '@/shared/levels-schemas'
import type { LevelsNotice } from '@/shared/live'
import { recordAudit } from '@/server/audit/record'
import { publishEvent } from '@/server/events/bus'
import type { Db } from '@/server/db/client'
import { preparedOnce } from '@/server/db/prepared'
import { UNIQUE_VIOLATION, violatedConstraint } from '@/server/db/errors'
import { canDoStatement, languageLevel, learnerProfile, word } from '@/server/db/schema'
import type { SessionUser } from '@/server/http/context'
import { ApiError } from '@/server/http/errors'

type LevelRow = typeof languageLevel.$inferSelect

export const levelNotFound = () => new ApiError('not_found', 'Language level not found')

function toLanguageLevel(row: LevelRow): LanguageLevel {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

// --- Reads ---------------------------------------------------------------------------------------

/**
 * The public list, the busiest query of the app: its two statements are built once per sort and
 * per search-or-not, with placeholders, and prepared on the database (drizzle's query building
 * and PostgreSQL's parsing were a third of a list request's cost).
 */
export function levelLister(db: Db) {
  const where = (searching: boolean) => (searching ? matching(sql.placeholder('pattern')) : undefined)
  const pageStatement = (sort: LevelSort, searching: boolean) =>
    preparedOnce(db, `levels_page_${sort.replace('-', 'desc_')}${searching ? '_q' : ''}`, (name) =>
      db
        .select()
        .from(languageLevel)
        .where(where(searching))
        .orderBy(sortOrder(sort), asc(languageLevel.id))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(name),
    )
  const totalStatement = (searching: boolean) =>
    preparedOnce(db, `levels_total${searching ? '_q' : ''}`, (name) =>
      db
        .select({ total: count() })
        .from(languageLevel)
        .where(where(searching))
        .prepare(name),
    )

  return async (query: LevelListQuery): Promise<LevelPage> => {
    const { page, pageSize, sort } = query
    const searching = Boolean(query.q)
    // `%` and `_` in the search are literal.
    const pattern = searching ? `%${(query.q ?? '').replace(/[\\%_]/g, '\\$&')}%` : undefined
    const [rows, [counted]] = await Promise.all([
      pageStatement(sort, searching).execute({ pattern, limit: pageSize, offset: (page - 1) * pageSize }),
      totalStatement(searching).execute({ pattern }),
    ])
    return { items: rows.map(toLanguageLevel), total: counted?.total ?? 0, page, pageSize }
  }
}

/** Levels whose code, name or description matches the LIKE pattern, ignoring case. */
function matching(pattern: Placeholder): SQL | undefined {
  return or(
    ilike(languageLevel.code, pattern),
    ilike(languageLevel.name, pattern),
    ilike(languageLevel.description, pattern),
  )
}

const sortColumns = {
  position: languageLevel.position,
  // Texts sort as people read them, not upper case before lower case.
  code: sql`lower(${languageLevel.code})`,
  name: sql`lower(${languageLevel.name})`,
  updatedAt: languageLevel.updatedAt,
}

function sortOrder(sort: LevelSort): SQL {
  const descending = sort.startsWith('-')
  const column = sortColumns[(descending ? sort.slice(1) : sort) as keyof typeof sortColumns]
  return descending ? desc(column) : asc(column)
}

export async function findLevel(db: Db, id: number): Promise<LanguageLevel> {
  const [row] = await db.select().from(languageLevel).where(eq(languageLevel.id, id))
  if (!row) throw levelNotFound()
  return toLanguageLevel(row)
}

export async function levelUsage(db: Db, id: number): Promise<LevelUsage> {
  // One query: no row means no such level. A learner with it as both levels counts once.
  const learners = sql`(
    select count(*) from ${learnerProfile}
    where ${learnerProfile.currentLevelId} = ${languageLevel.id}
       or ${learnerProfile.targetLevelId} = ${languageLevel.id})`.mapWith(Number)
  // Deleted with the level (ON DELETE CASCADE): the confirmation says how many.
  // Named in full: inside a select of one table, drizzle writes a column without its table, and
  // a bare "id" here would be the statement's own.
  const statements = sql`(
    select count(*) from ${canDoStatement} as statement where statement.level_id = ${languageLevel}.id)`.mapWith(Number)
  const words = sql`(
    select count(*) from ${word} as level_word where level_word.level_id = ${languageLevel}.id)`.mapWith(Number)
  const [row] = await db
    .select({ learners, statements, words })
    .from(languageLevel)
    .where(eq(languageLevel.id, id))
  if (!row) throw levelNotFound()
  return { learners: row.learners, statements: row.statements, words: row.words }
}

// --- Changes -------------------------------------------------------------------------------------

/**
 * Tells every instance, and every open screen, that the levels changed, when the transaction `tx`
 * commits: the caches of public reads are emptied. The last statement of the change.
 */
function announce(tx: Db, action: LevelsNotice['action'], id: number | null): Promise<void> {
  return publishEvent(tx, { type: 'levels', data: { action, id } })
}

/** Any 64-bit key would do: "lingua" in ASCII, then 2 (see ADMIN_LOCK_KEY in auth/roles.ts). */
const LEVEL_ORDER_LOCK_KEY = 0x6c696e6775610002n

/**
 * Serializes the changes of the order (create, delete, reorder), so that positions stay 0..n-1 and
 * a reorder sees every level; held until the transaction ends. An advisory lock, not a table lock:
 * reads and edits go on meanwhile, and an edit holding its row while a reorder waits for that row
 * cannot deadlock with it (a table lock would make the edit's UPDATE wait for the reorder).
 */
async function lockLevelOrder(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LEVEL_ORDER_LOCK_KEY.toString()})`)
}

/** A duplicate code (23505 on the unique index) is the client's conflict, however it raced. */
async function refusingDuplicateCode<T>(change: Promise<T>): Promise<T> {
  try {
    return await change
  } catch (error) {
    if (violatedConstraint(error, UNIQUE_VIOLATION) === 'language_level_code_lower_idx') {
      throw new ApiError('conflict', 'A level with this code already exists.', {
        code: ['A level with this code already exists.'],
      })
    }
    throw error
  }
}

export function createLevel(
  db: Db,
  input: z.output<typeof levelInputSchema>,
  actor: SessionUser,
): Promise<LanguageLevel> {
  return refusingDuplicateCode(
    db.transaction(async (tx) => {
      await lockLevelOrder(tx)
      const [counted] = await tx.select({ levels: count() }).from(languageLevel)
      const [row] = await tx
        .insert(languageLevel)
        .values({
          ...input,
          // Last in the order: positions are 0..n-1.
          position: counted?.levels ?? 0,
          createdBy: actor.id,
          updatedBy: actor.id,
        })
        .returning()
      const level = toLanguageLevel(row as LevelRow)
      await recordAudit(tx, actor, {
        action: 'level.create',
        targetType: 'language_level',
        targetId: String(level.id),
        before: null,
        after: level,
      })
      await announce(tx, 'create', level.id)
      return level
    }),
  )
}

export function updateLevel(
  db: Db,
  id: number,
  { version, ...changes }: z.output<typeof levelPatchSchema>,
  actor: SessionUser,
): Promise<LanguageLevel> {
  return refusingDuplicateCode(
    db.transaction(async (tx) => {
      // Locked first, so that the audit's "before" is exactly what this update replaces.
      const [before] = await tx
        .select()
        .from(languageLevel)
        .where(eq(languageLevel.id, id))
        .for('update')
      if (!before) throw levelNotFound()
      // The precondition: the version the client read. A reorder moves levels without changing
      // their version, so it does not invalidate an edit in progress.
      const [row] = await tx
        .update(languageLevel)
        .set({
          ...changes,
          version: sql`${languageLevel.version} + 1`,
          updatedAt: sql`now()`,
          updatedBy: actor.id,
        })
        .where(and(eq(languageLevel.id, id), eq(languageLevel.version, version)))
        .returning()
      if (!row) throw new ApiError('conflict', 'This level was changed by someone else.')
      const level = toLanguageLevel(row)
      await recordAudit(tx, actor, {
        action: 'level.update',
        targetType: 'language_level',
        targetId: String(id),
        before: toLanguageLevel(before),
        after: level,
      })
      await announce(tx, 'update', id)
      return level
    }),
  )
}

/**
 * Deletes a level; the profiles that use it lose it (ON DELETE SET NULL), its can-do statements go
 * with it (ON DELETE CASCADE, with their answers; results keep the level's code).
 */
export async function deleteLevel(db: Db, id: number, actor: SessionUser): Promise<void> {
  await db.transaction(async (tx) => {
    await lockLevelOrder(tx)
    const [row] = await tx.delete(languageLevel).where(eq(languageLevel.id, id)).returning()
    if (!row) throw levelNotFound()
    await compactPositions(tx)
    await recordAudit(tx, actor, {
      action: 'level.delete',
      targetType: 'language_level',
      targetId: String(id),
      before: toLanguageLevel(row),
      after: null,
    })
    await announce(tx, 'delete', id)
  })
}

/** Renumbers the levels 0..n-1 in their current order, writing only the rows that move. */
async function compactPositions(tx: Db): Promise<void> {
  await tx.execute(sql`
    update ${languageLevel} set position = ranked.position
    from (
      select id, row_number() over (order by position, id) - 1 as position from ${languageLevel}
    ) as ranked
    where ${languageLevel.id} = ranked.id and ${languageLevel.position} <> ranked.position`)
}

/**
 * Puts the levels in the order of `ids`, which must name every level once. Answers the levels in
 * their new order.
 */
export async function reorderLevels(
  db: Db,
  ids: number[],
  actor: SessionUser,
): Promise<LanguageLevel[]> {
  return db.transaction(async (tx) => {
    await lockLevelOrder(tx)
    const before = await orderedLevels(tx)
    const known = new Set(before.map((level) => level.id))
    if (ids.length !== known.size || !ids.every((id) => known.has(id))) {
      // Someone created or deleted a level since the client read the list.
      throw new ApiError('conflict', 'The levels changed; reload and try again.')
    }
    // One statement for the whole order; integers only, so the array literal is safe.
    await tx.execute(sql`
      update ${languageLevel} set position = wanted.ordinality - 1
      from unnest(${`{${ids.join(',')}}`}::int[]) with ordinality as wanted(id, ordinality)
      where ${languageLevel.id} = wanted.id and ${languageLevel.position} <> wanted.ordinality - 1`)
    const after = await orderedLevels(tx)
    await recordAudit(tx, actor, {
      action: 'level.reorder',
      targetType: 'language_levels',
      targetId: null,
      before: before.map(({ id, code }) => ({ id, code })),
      after: after.map(({ id, code }) => ({ id, code })),
    })
    await announce(tx, 'reorder', null)
    return after
  })
}

/** Every level in its order (the home page the server renders, reorder answers). */
export async function orderedLevels(db: Db): Promise<LanguageLevel[]> {
  const rows = await db.select().from(languageLevel).orderBy(asc(languageLevel.position), asc(languageLevel.id))
  return rows.map(toLanguageLevel)
}
