import type { Answer, AssessmentProgress, AssessmentResult, CanDoSet } from '@/shared/can-do'

/**
 * What the question screen walks through, without React: the statements of the skill asked now,
 * from the lowest level up to the level asked, so that "Back" can go to an earlier answer (the
 * server takes a new answer to any of them) and answering moves on.
 */

/** One statement of the skill asked now, as the learner meets it. */
export interface Step {
  statementId: number
  levelId: number
  /** Undefined while the texts being read do not have it yet (a statement just added). */
  text: string | undefined
  answer: Answer | undefined
}

/**
 * The skill's statements the learner has answered at the levels below the one asked, then every
 * statement of the level asked (its order), each with its answer if there is one.
 */
export function stepsOf(progress: AssessmentProgress, set: CanDoSet): Step[] {
  const asking = progress.asking
  if (!asking) return []
  const answers = new Map(progress.answers.map((given) => [given.statementId, given.answer]))
  const texts = new Map(set.items.map((item) => [item.id, item.text]))
  const levelOrder = new Map(set.levels.map((level, index) => [level.id, index]))
  const asked = levelOrder.get(asking.levelId) ?? -1
  const lower = set.items
    .filter((item) => {
      const at = levelOrder.get(item.levelId) ?? Number.POSITIVE_INFINITY
      return item.skill === asking.skill && at < asked && answers.has(item.id)
    })
    .sort((a, b) => (levelOrder.get(a.levelId) ?? 0) - (levelOrder.get(b.levelId) ?? 0) || a.position - b.position)
    .map((item) => ({ statementId: item.id, levelId: item.levelId }))
  const current = asking.statementIds.map((statementId) => ({ statementId, levelId: asking.levelId }))
  return [...lower, ...current].map((step) => ({
    ...step,
    text: texts.get(step.statementId),
    answer: answers.get(step.statementId),
  }))
}

/**
 * Where the learner is: at `revisiting` (a statement gone back to with "Back") while it is still
 * one of the steps and answered, else at the first unanswered step.
 */
export function currentIndex(steps: readonly Step[], revisiting: number | null): number {
  if (revisiting !== null) {
    const at = steps.findIndex((step) => step.statementId === revisiting)
    if (at >= 0 && steps[at]?.answer !== undefined) return at
  }
  return steps.findIndex((step) => step.answer === undefined)
}

/**
 * After answering `steps[index]` again (gone back to it), the statement to show next: the one
 * after it when it is still a step and answered (the learner goes forward through their earlier
 * answers), else null (the first unanswered one).
 */
export function nextRevisit(before: readonly Step[], index: number, after: readonly Step[]): number | null {
  const next = before[index + 1]
  if (!next) return null
  return after.some((step) => step.statementId === next.statementId && step.answer !== undefined) ? next.statementId : null
}

/** `steps[index]`'s place among the steps of its level: "statement 2 of 3". */
export function placeInLevel(steps: readonly Step[], index: number): { n: number; count: number } {
  const levelId = steps[index]?.levelId
  const same = steps.filter((step) => step.levelId === levelId)
  return { n: same.findIndex((step) => step === steps[index]) + 1, count: same.length }
}

/**
 * Why the overall level is what it is, for the sentence under it: `shared` when at least three
 * skills are at it (`count` of them), else `middle` (the lowest of the middle three). The server
 * decided the level; this only reads the result.
 */
export function overallReason(result: AssessmentResult): { kind: 'shared' | 'middle'; count: number } {
  const count = result.skills.filter((skill) => skill.levelCode === result.overall).length
  return { kind: count >= 3 ? 'shared' : 'middle', count }
}

/** A result level's place on the scale of `levels` (by code, ignoring case); -1 below the first or gone. */
export function rankOf(code: string | null, levels: readonly { code: string }[]): number {
  if (code === null) return -1
  return levels.findIndex((level) => level.code.toLowerCase() === code.toLowerCase())
}
