import { describe, expect, it } from 'vitest'
import type { Answer, AssessmentProgress, AssessmentResult, CanDoSet, Skill } from '@/shared/can-do'
import {
  currentIndex,
  nextRevisit,
  overallReason,
  placeInLevel,
  rankOf,
  stepsOf,
} from '@/client/features/assessment/steps'

// Levels A1 (1), A2 (2), B1 (3); listening has statements 11–13 at A1, 21–22 at A2, 31 at B1;
// reading has 14 at A1. Positions are given out of id order to check the sort.
const set: CanDoSet = {
  lang: 'en',
  levels: [
    { id: 1, code: 'A1', name: 'Beginner' },
    { id: 2, code: 'A2', name: 'Elementary' },
    { id: 3, code: 'B1', name: 'Intermediate' },
  ],
  items: [
    { id: 12, levelId: 1, skill: 'listening', position: 1, text: 'A1 second' },
    { id: 11, levelId: 1, skill: 'listening', position: 0, text: 'A1 first' },
    { id: 13, levelId: 1, skill: 'listening', position: 2, text: 'A1 third' },
    { id: 14, levelId: 1, skill: 'reading', position: 0, text: 'Reading A1' },
    { id: 21, levelId: 2, skill: 'listening', position: 0, text: 'A2 first' },
    { id: 22, levelId: 2, skill: 'listening', position: 1, text: 'A2 second' },
    { id: 31, levelId: 3, skill: 'listening', position: 0, text: 'B1 first' },
  ],
}

function progress(
  asking: { skill: Skill; levelId: number; statementIds: number[] } | null,
  answers: [number, Answer][],
): AssessmentProgress {
  return {
    id: 1,
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: null,
    skills: [],
    asking,
    answers: answers.map(([statementId, answer]) => ({ statementId, answer, answeredAt: '2026-01-01T00:00:00Z' })),
    result: null,
  }
}

const ids = (steps: { statementId: number }[]) => steps.map((step) => step.statementId)

describe('stepsOf', () => {
  it('is the level asked, with its texts, when nothing is answered yet', () => {
    const steps = stepsOf(progress({ skill: 'listening', levelId: 1, statementIds: [11, 12, 13] }, []), set)
    expect(steps).toEqual([
      { statementId: 11, levelId: 1, text: 'A1 first', answer: undefined },
      { statementId: 12, levelId: 1, text: 'A1 second', answer: undefined },
      { statementId: 13, levelId: 1, text: 'A1 third', answer: undefined },
    ])
  })

  it('puts the answered statements of the lower levels of the same skill first, in level and position order', () => {
    const answers: [number, Answer][] = [
      [13, 'can'],
      [11, 'can'],
      [12, 'not-yet'],
      [14, 'can'],
      [21, 'can'],
    ]
    const steps = stepsOf(progress({ skill: 'listening', levelId: 2, statementIds: [21, 22] }, answers), set)
    expect(ids(steps)).toEqual([11, 12, 13, 21, 22])
    expect(steps.map((step) => step.answer)).toEqual(['can', 'not-yet', 'can', 'can', undefined])
  })

  it('is empty when nothing is asked (every skill finished)', () => {
    expect(stepsOf(progress(null, [[11, 'can']]), set)).toEqual([])
  })

  it('leaves the text undefined for a statement the texts do not have yet', () => {
    const steps = stepsOf(progress({ skill: 'listening', levelId: 3, statementIds: [31, 99] }, []), set)
    expect(steps.map((step) => step.text)).toEqual(['B1 first', undefined])
  })
})

describe('currentIndex and nextRevisit', () => {
  const answers: [number, Answer][] = [
    [11, 'can'],
    [12, 'can'],
    [13, 'can'],
    [21, 'not-yet'],
  ]
  const steps = stepsOf(progress({ skill: 'listening', levelId: 2, statementIds: [21, 22] }, answers), set)

  it('is the first unanswered statement, unless the learner went back to an answered one', () => {
    expect(currentIndex(steps, null)).toBe(4)
    expect(currentIndex(steps, 12)).toBe(1)
    // Not a step (another skill) or not answered: the first unanswered one.
    expect(currentIndex(steps, 14)).toBe(4)
    expect(currentIndex(steps, 22)).toBe(4)
  })

  it('goes forward through earlier answers after one is changed, then back to the first unanswered', () => {
    const after = stepsOf(
      progress({ skill: 'listening', levelId: 2, statementIds: [21, 22] }, [...answers.slice(0, 1), [12, 'not-yet'], ...answers.slice(2)]),
      set,
    )
    expect(nextRevisit(steps, 1, after)).toBe(13)
    // The one after 21 is unanswered: back to where the learner was.
    expect(nextRevisit(steps, 3, after)).toBeNull()
    // The skill ended with the change: its statements are no longer steps.
    expect(nextRevisit(steps, 1, [])).toBeNull()
  })

  it('numbers a statement within its level', () => {
    expect(placeInLevel(steps, 1)).toEqual({ n: 2, count: 3 })
    expect(placeInLevel(steps, 4)).toEqual({ n: 2, count: 2 })
  })
})

describe('the result', () => {
  const result = (overall: string | null, levels: (string | null)[]): AssessmentResult => ({
    id: 1,
    startedAt: '2026-01-01T00:00:00Z',
    takenAt: '2026-01-01T00:10:00Z',
    skills: (['listening', 'reading', 'spoken-interaction', 'spoken-production', 'writing'] as const).map((skill, at) => ({
      skill,
      levelCode: levels[at] ?? null,
    })),
    overall,
    firstLevelCode: 'A1',
  })

  it('says whether three skills share the overall level or it is the lowest of the middle three', () => {
    expect(overallReason(result('B1', ['B1', 'B1', 'A2', 'B1', 'C1']))).toEqual({ kind: 'shared', count: 3 })
    expect(overallReason(result('A2', ['A1', 'A2', 'B1', 'B2', 'C1']))).toEqual({ kind: 'middle', count: 1 })
    expect(overallReason(result(null, [null, null, null, 'A1', 'A2']))).toEqual({ kind: 'shared', count: 3 })
  })

  it('places a level on the scale by code, ignoring case; below the first or gone is -1', () => {
    expect(rankOf('a2', set.levels)).toBe(1)
    expect(rankOf(null, set.levels)).toBe(-1)
    expect(rankOf('C2', set.levels)).toBe(-1)
  })
})
