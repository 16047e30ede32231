import { type Answer, SKILLS, type Skill } from './can-do'

/**
 * The placement rule of the self-assessment (docs/product.md §10), without a framework: the server
 * decides with it what to ask and what was reached, and the client's result page can explain it.
 *
 * Within a skill the levels are taken in level order. A level is reached when at least 80 % of its
 * statements are answered "I can do this"; two levels in a row below that end the skill; so does
 * the last level. A level without statements for the skill is skipped: it is neither reached nor
 * missed, and breaks no run. A skill's level is the highest level reached with every lower level
 * (that has statements) reached too; none: below the first level.
 */

/** A level is reached from this share of "I can do this" answers, in percent. */
export const REACHED_PERCENT = 80
/** This many levels in a row below REACHED_PERCENT end a skill. */
export const MISSED_IN_A_ROW = 2

export interface PlacementLevel {
  id: number
  code: string
}

/** One level as one skill asks it: the ids of its statements for that skill, in order. */
export interface SkillLevel<L extends PlacementLevel = PlacementLevel> {
  level: L
  statementIds: readonly number[]
}

/**
 * What became of a level in a skill: `reached`, `missed` (answered, below the share), `empty` (no
 * statement: skipped), `asking` (the level asked now: not all answered), `not-asked` (after it, or
 * after the skill ended).
 */
export type LevelOutcome = 'reached' | 'missed' | 'empty' | 'asking' | 'not-asked'

export interface SkillPlacement<L extends PlacementLevel = PlacementLevel> {
  finished: boolean
  /** The highest level reached with every lower one reached; null: none (below the first). */
  level: L | null
  /** The level to ask now, when not finished. */
  asking: SkillLevel<L> | null
  /** Every level, in the order given, with what became of it. */
  outcomes: { level: L; outcome: LevelOutcome }[]
}

/** Whether enough of `statementIds` are answered "I can do this" (all must be answered). */
function reached(statementIds: readonly number[], answers: ReadonlyMap<number, Answer>): boolean {
  const can = statementIds.filter((id) => answers.get(id) === 'can').length
  // In integers: 4 of 5 is exactly 80 %, whatever floating point makes of 0.8.
  return can * 100 >= statementIds.length * REACHED_PERCENT
}

/**
 * Places one skill: `levels` in level order with the skill's statements of each, `answers` by
 * statement id (answers to statements not listed are ignored). Answers already given to a level
 * after the one asked now (the levels were reordered since) wait until that level is asked.
 */
export function placeSkill<L extends PlacementLevel>(
  levels: readonly SkillLevel<L>[],
  answers: ReadonlyMap<number, Answer>,
): SkillPlacement<L> {
  let level: L | null = null
  let unbroken = true
  let missedInARow = 0
  let ended = false
  let asking: SkillLevel<L> | null = null
  const outcomes: SkillPlacement<L>['outcomes'] = []
  for (const entry of levels) {
    let outcome: LevelOutcome
    if (ended || asking) outcome = 'not-asked'
    else if (entry.statementIds.length === 0) outcome = 'empty'
    else if (entry.statementIds.some((id) => !answers.has(id))) {
      asking = entry
      outcome = 'asking'
    } else if (reached(entry.statementIds, answers)) {
      missedInARow = 0
      if (unbroken) level = entry.level
      outcome = 'reached'
    } else {
      unbroken = false
      missedInARow += 1
      if (missedInARow >= MISSED_IN_A_ROW) ended = true
      outcome = 'missed'
    }
    outcomes.push({ level: entry.level, outcome })
  }
  return { finished: asking === null, level, asking, outcomes }
}

/**
 * The overall level from the five skills' levels (null: below the first level), `order` being
 * every level in level order. Sorted from lowest to highest, l1 ≤ l2 ≤ l3 ≤ l4 ≤ l5: the level
 * that at least three skills have (it is then l3, the middle one); otherwise l2, the lowest of the
 * middle three — when the skills disagree, the learner is placed where at least four of them are
 * at or above. A level not in `order` counts as below the first.
 */
export function overallLevel<L>(order: readonly L[], skillLevels: readonly (L | null)[]): L | null {
  const ranks = skillLevels.map((level) => (level === null ? -1 : order.indexOf(level))).sort((a, b) => a - b)
  const shared = ranks.find((rank) => ranks.filter((other) => other === rank).length >= 3)
  const rank = shared ?? ranks[1] ?? ranks[0] ?? -1
  return rank < 0 ? null : (order[rank] ?? null)
}

/** A statement as the placement needs it. */
export interface PlacementStatement {
  id: number
  levelId: number
  skill: Skill
  position: number
}

export interface AssessmentPlacement<L extends PlacementLevel = PlacementLevel> {
  /** In SKILLS order. */
  skills: ({ skill: Skill } & SkillPlacement<L>)[]
  /** The first skill not finished: the one asked now; null when all are. */
  current: ({ skill: Skill } & SkillPlacement<L>) | null
  finished: boolean
  /** Only once finished (undefined before). */
  overall: L | null | undefined
}

/**
 * Places every skill of an assessment: `levels` in level order, the statements of any level and
 * skill (statements of a level not in `levels` are ignored), the answers by statement id.
 */
export function placeAssessment<L extends PlacementLevel>(
  levels: readonly L[],
  statements: readonly PlacementStatement[],
  answers: ReadonlyMap<number, Answer>,
): AssessmentPlacement<L> {
  const sorted = [...statements].sort((a, b) => a.position - b.position || a.id - b.id)
  const skills = SKILLS.map((skill) => {
    const cells = levels.map((level) => ({
      level,
      statementIds: sorted.filter((s) => s.skill === skill && s.levelId === level.id).map((s) => s.id),
    }))
    return { skill, ...placeSkill(cells, answers) }
  })
  const current = skills.find((skill) => !skill.finished) ?? null
  const finished = current === null
  const overall = finished
    ? overallLevel(
        levels,
        skills.map((skill) => skill.level),
      )
    : undefined
  return { skills, current, finished, overall }
}
