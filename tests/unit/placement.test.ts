import { describe, expect, it } from 'vitest'
import { type Answer, SKILLS } from '@/shared/can-do'
import {
  type LevelOutcome,
  MISSED_IN_A_ROW,
  type PlacementStatement,
  REACHED_PERCENT,
  type SkillLevel,
  overallLevel,
  placeAssessment,
  placeSkill,
} from '@/shared/placement'

const level = (code: string, id: number) => ({ id, code })
const A1 = level('A1', 1)
const A2 = level('A2', 2)
const B1 = level('B1', 3)
const B2 = level('B2', 4)
const C1 = level('C1', 5)
const C2 = level('C2', 6)
const cefr = [A1, A2, B1, B2, C1, C2]

/** Each level with `count` statements (ids level.id * 100 + 1…), in the order given. */
function cells(levels: { id: number; code: string }[], count: number | ((code: string) => number) = 3): SkillLevel[] {
  return levels.map((level) => {
    const n = typeof count === 'number' ? count : count(level.code)
    return { level, statementIds: Array.from({ length: n }, (_, i) => level.id * 100 + i + 1) }
  })
}

/** Answers every statement of the levels: `can` of each level's statements "I can", the rest "Not yet". */
function answer(levels: SkillLevel[], can: Record<string, number>): Map<number, Answer> {
  const answers = new Map<number, Answer>()
  for (const { level, statementIds } of levels) {
    if (!(level.code in can)) continue
    statementIds.forEach((id, i) => answers.set(id, i < (can[level.code] ?? 0) ? 'can' : 'not-yet'))
  }
  return answers
}

const codes = (placement: ReturnType<typeof placeSkill>) => ({
  level: placement.level?.code ?? null,
  finished: placement.finished,
  asking: placement.asking?.level.code ?? null,
  outcomes: placement.outcomes.map(({ level, outcome }: { level: { code: string }; outcome: LevelOutcome }) => `${level.code}:${outcome}`),
})

describe('placing one skill', () => {
  it('takes 80 % as the share that reaches a level, and two misses in a row as the end (docs/product.md §10)', () => {
    expect(REACHED_PERCENT).toBe(80)
    expect(MISSED_IN_A_ROW).toBe(2)
  })

  it('asks the first level first, before any answer', () => {
    expect(codes(placeSkill(cells(cefr), new Map()))).toMatchObject({ level: null, finished: false, asking: 'A1' })
  })

  it('reaches every level when every answer is "I can", and ends after the last', () => {
    const levels = cells(cefr)
    const result = codes(placeSkill(levels, answer(levels, { A1: 3, A2: 3, B1: 3, B2: 3, C1: 3, C2: 3 })))
    expect(result).toEqual({
      level: 'C2',
      finished: true,
      asking: null,
      outcomes: ['A1:reached', 'A2:reached', 'B1:reached', 'B2:reached', 'C1:reached', 'C2:reached'],
    })
  })

  it('counts 80 % exactly as reached (4 of 5), and 3 of 4 as not', () => {
    const five = cells([A1], 5)
    expect(placeSkill(five, answer(five, { A1: 4 })).level).toBe(A1)
    const four = cells([A1], 4)
    expect(placeSkill(four, answer(four, { A1: 3 })).level).toBeNull()
  })

  it('ends the skill after two levels in a row below 80 %, not after one', () => {
    const levels = cells(cefr)
    const one = codes(placeSkill(levels, answer(levels, { A1: 3, A2: 1 })))
    expect(one).toMatchObject({ level: 'A1', finished: false, asking: 'B1' })
    const two = codes(placeSkill(levels, answer(levels, { A1: 3, A2: 1, B1: 2 })))
    expect(two).toEqual({
      level: 'A1',
      finished: true,
      asking: null,
      outcomes: ['A1:reached', 'A2:missed', 'B1:missed', 'B2:not-asked', 'C1:not-asked', 'C2:not-asked'],
    })
  })

  it('goes on after a missed level followed by a reached one, but the skill level stays below the gap', () => {
    const levels = cells(cefr)
    const result = codes(placeSkill(levels, answer(levels, { A1: 3, A2: 2, B1: 3, B2: 1, C1: 0 })))
    // A2 missed, B1 reached (the run of misses starts again), B2 and C1 missed: the end.
    expect(result).toMatchObject({ level: 'A1', finished: true })
    expect(result.outcomes.slice(0, 5)).toEqual(['A1:reached', 'A2:missed', 'B1:reached', 'B2:missed', 'C1:missed'])
  })

  it('places below the first level when the first two are missed', () => {
    const levels = cells(cefr)
    expect(codes(placeSkill(levels, answer(levels, { A1: 2, A2: 0 })))).toMatchObject({ level: null, finished: true })
  })

  it('skips a level without statements: neither reached nor missed, and not a break in a run', () => {
    const levels = cells(cefr, (code) => (code === 'A2' || code === 'B2' ? 0 : 3))
    const climbing = codes(placeSkill(levels, answer(levels, { A1: 3, B1: 3, C1: 3, C2: 0 })))
    expect(climbing.outcomes).toEqual(['A1:reached', 'A2:empty', 'B1:reached', 'B2:empty', 'C1:reached', 'C2:missed'])
    // The last level ends it; a skipped level is no gap: C1 has every lower level with statements reached.
    expect(climbing).toMatchObject({ level: 'C1', finished: true })
    // B1 and C1 missed with the empty B2 between them: two in a row.
    const falling = codes(placeSkill(levels, answer(levels, { A1: 3, B1: 0, C1: 0 })))
    expect(falling).toMatchObject({ level: 'A1', finished: true })
  })

  it('is finished at once, below the first level, when no level has a statement', () => {
    expect(codes(placeSkill(cells(cefr, 0), new Map()))).toMatchObject({ level: null, finished: true, asking: null })
  })

  it('decides a level with one statement on that one answer', () => {
    const levels = cells([A1, A2, B1], 1)
    expect(codes(placeSkill(levels, answer(levels, { A1: 1, A2: 1, B1: 0 })))).toMatchObject({ level: 'A2', finished: true })
    expect(codes(placeSkill(levels, answer(levels, { A1: 0, A2: 0 })))).toMatchObject({ level: null, finished: true })
  })

  it('asks a level again while one of its statements is unanswered (a statement added meanwhile)', () => {
    const levels = cells([A1, A2], 3)
    const answers = answer(levels, { A1: 3 })
    const grown = [{ level: A1, statementIds: [...(levels[0]?.statementIds ?? []), 199] }, ...levels.slice(1)]
    expect(codes(placeSkill(grown, answers))).toMatchObject({ level: null, asking: 'A1' })
  })

  it('follows the order the levels have now, when they were reordered after the answers', () => {
    const levels = cells(cefr)
    const answers = answer(levels, { A1: 3, A2: 3, B1: 3 })
    // B1 moved first: it is still reached, then A1 and A2, then B2 is asked.
    const reordered = [levels[2], levels[0], levels[1], ...levels.slice(3)] as SkillLevel[]
    expect(codes(placeSkill(reordered, answers))).toMatchObject({ level: 'A2', asking: 'B2' })
    // B2 moved before answered ones: it is asked now; the later answers wait for their turn.
    const b2First = [levels[3], ...levels.slice(0, 3), ...levels.slice(4)] as SkillLevel[]
    const waiting = codes(placeSkill(b2First, answers))
    expect(waiting).toMatchObject({ level: null, asking: 'B2' })
    expect(waiting.outcomes.slice(0, 2)).toEqual(['B2:asking', 'A1:not-asked'])
  })

  it('ignores answers to statements it does not list (a statement deleted since)', () => {
    const levels = cells([A1], 3)
    const answers = answer(levels, { A1: 3 })
    answers.set(999, 'not-yet')
    expect(placeSkill(levels, answers).level).toBe(A1)
  })
})

describe('the overall level', () => {
  const overall = (...levels: (string | null)[]) => overallLevel(['A1', 'A2', 'B1', 'B2', 'C1', 'C2'], levels)

  it('is the level at least three skills have', () => {
    expect(overall('B1', 'B1', 'B1', 'A1', 'C2')).toBe('B1')
    expect(overall('C2', 'C2', 'C2', 'C2', 'C2')).toBe('C2')
    expect(overall(null, null, null, 'C1', 'C2')).toBeNull()
  })

  it('is otherwise the lowest of the middle three (the second lowest)', () => {
    expect(overall('A1', 'A2', 'B1', 'B2', 'C1')).toBe('A2')
    expect(overall('C1', 'A2', 'B1', 'A2', 'B1')).toBe('A2')
    expect(overall(null, 'B2', 'B2', 'C1', 'C1')).toBe('B2')
    expect(overall(null, null, 'B2', 'C1', 'C1')).toBeNull()
  })

  it('counts a level that is no longer in the order as below the first', () => {
    expect(overall('Z9', 'Z9', 'Z9', 'A1', 'A1')).toBeNull()
  })
})

describe('placing a whole assessment', () => {
  const statements: PlacementStatement[] = SKILLS.flatMap((skill, s) =>
    cefr.flatMap((level) => [0, 1, 2].map((position) => ({ id: (s + 1) * 1000 + level.id * 10 + position, levelId: level.id, skill, position }))),
  )
  const all = (skill: string, levelIds: number[], can: boolean) =>
    statements.filter((s) => s.skill === skill && levelIds.includes(s.levelId)).map((s) => [s.id, can ? 'can' : 'not-yet'] as const)

  it('asks the skills one at a time, in their order, from the lowest level', () => {
    const start = placeAssessment(cefr, statements, new Map())
    expect(start.current?.skill).toBe('listening')
    expect(start.current?.asking?.level).toBe(A1)
    expect(start.current?.asking?.statementIds).toEqual([1010, 1011, 1012])
    expect(start.overall).toBeUndefined()

    const listeningDone = new Map<number, Answer>([...all('listening', [1, 2], false)])
    expect(placeAssessment(cefr, statements, listeningDone).current?.skill).toBe('reading')
  })

  it('gives every skill its level and the overall level once every skill is finished', () => {
    const answers = new Map<number, Answer>([
      ...all('listening', [1, 2, 3], true),
      ...all('listening', [4, 5], false),
      ...all('reading', [1, 2, 3], true),
      ...all('reading', [4, 5], false),
      ...all('spoken-interaction', [1, 2], true),
      ...all('spoken-interaction', [3, 4], false),
      ...all('spoken-production', [1, 2], false),
      ...all('writing', [1, 2, 3, 4, 5, 6], true),
    ])
    const placed = placeAssessment(cefr, statements, answers)
    expect(placed.finished).toBe(true)
    expect(placed.skills.map((skill) => skill.level?.code ?? null)).toEqual(['B1', 'B1', 'A2', null, 'C2'])
    // null, A2, B1, B1, C2: no three share a level; the second lowest.
    expect(placed.overall).toBe(A2)
  })

  it('orders statements by position within a cell, whatever order they come in', () => {
    const shuffled = [...statements].reverse()
    expect(placeAssessment(cefr, shuffled, new Map()).current?.asking?.statementIds).toEqual([1010, 1011, 1012])
  })
})
