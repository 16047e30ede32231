import { and, asc, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm'
import {
  type Answer,
  type AssessmentProgress,
  type AssessmentResult,
  type AssessmentState,
  SKILLS,
  type Skill,
} from '@/shared/can-do'
import type { AnswerInput } from '@/shared/can-do-schemas'
import { type AssessmentPlacement, type PlacementStatement, placeAssessment } from '@/shared/placement'
import type { Db } from '@/server/db/client'
import { FOREIGN_KEY_VIOLATION, violatedConstraint } from '@/server/db/errors'
import { assessment, assessmentAnswer, canDoStatement, languageLevel } from '@/server/db/schema'
import { KeptReads } from '@/server/events/kept-reads'
import { ApiError } from '@/server/http/errors'

type AssessmentRow = typeof assessment.$inferSelect
type AnswerRow = { statementId: number; can: boolean; answeredAt: Date }

const notInProgress = () => new ApiError('conflict', 'No self-assessment is in progress: start one first.')
const refusedStatement = (message: string) =>
  new ApiError('validation_failed', 'The request is not valid.', { statementId: [message] })

/** The result of a finished assessment, its levels as the codes they had. */
function toResult(row: AssessmentRow): AssessmentResult {
  return {
    id: row.id,
    startedAt: row.startedAt.toISOString(),
    takenAt: (row.finishedAt ?? row.startedAt).toISOString(),
    skills: SKILLS.map((skill) => ({ skill, levelCode: row.skillLevels?.[skill] ?? null })),
    overall: row.overallLevelCode,
    firstLevelCode: row.firstLevelCode,
  }
}

/** What the rule needs: the levels in their order, and every statement. */
interface Placement {
  levels: { id: number; code: string }[]
  statements: PlacementStatement[]
}

/**
 * The levels and the statements as the rule reads them, kept in memory until a level or a
 * statement changes on any instance (KeptReads): an answer reads neither.
 */
export class PlacementData extends KeptReads<Placement> {
  constructor() {
    super((event) => event.type === 'levels' || event.type === 'can-do', 1)
  }

  of(db: Db): Promise<Placement> {
    return this.read('placement', async () => {
      const [levels, statements] = await Promise.all([
        db.select({ id: languageLevel.id, code: languageLevel.code }).from(languageLevel).orderBy(asc(languageLevel.position), asc(languageLevel.id)),
        db
          .select({ id: canDoStatement.id, levelId: canDoStatement.levelId, skill: canDoStatement.skill, position: canDoStatement.position })
          .from(canDoStatement),
      ])
      return { levels, statements: statements as PlacementStatement[] }
    })
  }
}

/** `answersOf`'s order: oldest first, then by statement. */
const byAnswerOrder = (a: AnswerRow, b: AnswerRow) => a.answeredAt.getTime() - b.answeredAt.getTime() || a.statementId - b.statementId

async function answersOf(db: Db, assessmentId: number): Promise<AnswerRow[]> {
  return db
    .select({ statementId: assessmentAnswer.statementId, can: assessmentAnswer.can, answeredAt: assessmentAnswer.answeredAt })
    .from(assessmentAnswer)
    .where(eq(assessmentAnswer.assessmentId, assessmentId))
    .orderBy(asc(assessmentAnswer.answeredAt), asc(assessmentAnswer.statementId))
}

const answerOf = (can: boolean): Answer => (can ? 'can' : 'not-yet')
const answerMap = (rows: AnswerRow[]) => new Map(rows.map((row) => [row.statementId, answerOf(row.can)]))

function toProgress(row: AssessmentRow, placement: AssessmentPlacement, answers: AnswerRow[]): AssessmentProgress {
  const { current } = placement
  return {
    id: row.id,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    skills: placement.skills.map(({ skill, finished, level }) => ({ skill, finished, levelId: level?.id ?? null, levelCode: level?.code ?? null })),
    asking:
      current?.asking ? { skill: current.skill, levelId: current.asking.level.id, statementIds: [...current.asking.statementIds] } : null,
    answers: answers.map((answer) => ({
      statementId: answer.statementId,
      answer: answerOf(answer.can),
      answeredAt: answer.answeredAt.toISOString(),
    })),
    result: row.finishedAt ? toResult(row) : null,
  }
}

/** The assessment in progress of `userId`, placed by the rule as the levels and statements are now. */
async function progressOf(db: Db, placement: PlacementData, row: AssessmentRow): Promise<AssessmentProgress> {
  const [{ levels, statements }, answers] = await Promise.all([placement.of(db), answersOf(db, row.id)])
  return toProgress(row, placeAssessment(levels, statements, answerMap(answers)), answers)
}

const inProgressOf = (userId: string) => and(eq(assessment.userId, userId), isNull(assessment.finishedAt))

/** The latest finished assessment of `userId`, if any. */
export async function latestResult(db: Db, userId: string): Promise<AssessmentResult | null> {
  const [row] = await db
    .select()
    .from(assessment)
    .where(and(eq(assessment.userId, userId), isNotNull(assessment.finishedAt)))
    .orderBy(desc(assessment.finishedAt))
    .limit(1)
  return row ? toResult(row) : null
}

export async function assessmentState(db: Db, placement: PlacementData, userId: string): Promise<AssessmentState> {
  const [[row], latest] = await Promise.all([db.select().from(assessment).where(inProgressOf(userId)), latestResult(db, userId)])
  return { inProgress: row ? await progressOf(db, placement, row) : null, latest }
}

/**
 * Starts an assessment, or answers the one in progress (leaving mid-way keeps the answers). One
 * in progress per learner (a partial unique index): two starts at once make one.
 */
export async function startAssessment(db: Db, placement: PlacementData, userId: string): Promise<{ progress: AssessmentProgress; created: boolean }> {
  let created: AssessmentRow | undefined
  try {
    ;[created] = await db
      .insert(assessment)
      .values({ userId })
      .onConflictDoNothing({ target: assessment.userId, where: sql`${assessment.finishedAt} is null` })
      .returning()
  } catch (error) {
    // Deleted, while its session's cached copy still lives (up to 60 s).
    if (violatedConstraint(error, FOREIGN_KEY_VIOLATION)) throw new ApiError('unauthenticated', 'Sign in first.')
    throw error
  }
  const [row] = created ? [created] : await db.select().from(assessment).where(inProgressOf(userId))
  // Finished by another request between the insert and this read: start again.
  if (!row) return startAssessment(db, placement, userId)
  return { progress: await progressOf(db, placement, row), created: created !== undefined }
}

/**
 * Answers one statement of the assessment in progress (again, to change an answer: "Back"). The
 * statement must be of the skill asked now, at the level asked or a lower one (400 otherwise); a
 * statement of a finished skill is 409. When the last skill finishes, the result is kept, its
 * levels as codes.
 */
export async function answerStatement(db: Db, placement: PlacementData, userId: string, input: AnswerInput): Promise<AssessmentProgress> {
  // Read before the transaction: a read of the kept data may need a connection of its own.
  const { levels, statements } = await placement.of(db)
  return db.transaction(async (tx) => {
    // Locked: two answers of one learner at once are placed one after the other.
    const [row] = await tx.select().from(assessment).where(inProgressOf(userId)).for('update')
    if (!row) throw notInProgress()
    const answers = await answersOf(tx, row.id)
    const statement = statements.find((s) => s.id === input.statementId)
    if (!statement) throw refusedStatement('This statement does not exist.')
    const before = placeAssessment(levels, statements, answerMap(answers))
    const skill = before.skills.find((s) => s.skill === statement.skill)
    if (skill?.finished) throw new ApiError('conflict', 'This skill is finished: its answers cannot change now.')
    const asked = skill?.outcomes.findIndex((o) => o.outcome === 'asking') ?? -1
    const at = skill?.outcomes.findIndex((o) => o.level.id === statement.levelId) ?? -1
    if (before.current?.skill !== statement.skill || at < 0 || at > asked) {
      throw refusedStatement('This statement is not asked yet: answer the skills in order, from the lowest level.')
    }
    const can = input.answer === 'can'
    const stored = await tx
      .insert(assessmentAnswer)
      .values({ assessmentId: row.id, statementId: statement.id, can })
      .onConflictDoUpdate({
        target: [assessmentAnswer.assessmentId, assessmentAnswer.statementId],
        set: { can, answeredAt: sql`now()` },
      })
      .returning({ statementId: assessmentAnswer.statementId, can: assessmentAnswer.can, answeredAt: assessmentAnswer.answeredAt })
      .catch((error: unknown) => {
        // Deleted since the statements kept were read (an event on its way).
        throw violatedConstraint(error, FOREIGN_KEY_VIOLATION) ? refusedStatement('This statement does not exist.') : error
      })
    // The answers as `answersOf` would read them now: the assessment is locked, nobody else wrote.
    const now = [...answers.filter((answer) => answer.statementId !== statement.id), ...stored].sort(byAnswerOrder)
    const after = placeAssessment(levels, statements, answerMap(now))
    if (!after.finished) return toProgress(row, after, now)
    const [finished] = await tx
      .update(assessment)
      .set({
        finishedAt: sql`now()`,
        skillLevels: Object.fromEntries(after.skills.map(({ skill: name, level }) => [name, level?.code ?? null])),
        overallLevelCode: after.overall?.code ?? null,
        firstLevelCode: levels[0]?.code ?? null,
      })
      .where(eq(assessment.id, row.id))
      .returning()
    return toProgress(finished ?? row, after, now)
  })
}

/** "Start again": the assessment in progress and its answers are deleted; results stay. */
export async function resetAssessment(db: Db, userId: string): Promise<void> {
  await db.delete(assessment).where(inProgressOf(userId))
}

/** Every assessment of `userId` with its answers, oldest first: their copy of their data. */
export async function assessmentsOf(db: Db, userId: string) {
  const [rows, answers] = await Promise.all([
    db.select().from(assessment).where(eq(assessment.userId, userId)).orderBy(asc(assessment.startedAt), asc(assessment.id)),
    db
      .select({
        assessmentId: assessmentAnswer.assessmentId,
        level: languageLevel.code,
        skill: canDoStatement.skill,
        statement: canDoStatement.textEn,
        can: assessmentAnswer.can,
        answeredAt: assessmentAnswer.answeredAt,
      })
      .from(assessmentAnswer)
      .innerJoin(assessment, eq(assessment.id, assessmentAnswer.assessmentId))
      .innerJoin(canDoStatement, eq(canDoStatement.id, assessmentAnswer.statementId))
      .innerJoin(languageLevel, eq(languageLevel.id, canDoStatement.levelId))
      .where(eq(assessment.userId, userId))
      .orderBy(asc(assessmentAnswer.answeredAt), asc(assessmentAnswer.statementId)),
  ])
  return rows.map((row) => ({
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    result: row.finishedAt ? { skills: toResult(row).skills, overall: row.overallLevelCode, firstLevelCode: row.firstLevelCode } : null,
    answers: answers
      .filter((answer) => answer.assessmentId === row.id)
      .map(({ level, skill, statement, can, answeredAt }) => ({
        level,
        skill: skill as Skill,
        statement,
        answer: answerOf(can),
        answeredAt: answeredAt.toISOString(),
      })),
  }))
}
