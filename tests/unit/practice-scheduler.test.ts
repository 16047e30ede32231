import { describe, expect, it } from 'vitest'
import { intervalLabel } from '@/shared/practice'
import { defaultFsrsParameters, nextIntervals, review, scheduleOf } from '@/server/api/practice/scheduler'

const now = new Date('2026-05-10T09:00:00Z')
const parameters = defaultFsrsParameters()
const labels = (intervals: ReturnType<typeof nextIntervals>) => intervals.map(({ label }) => `${label.value} ${label.unit}`)

describe('the FSRS scheduler', () => {
  it('shows the next interval of each grade of a new word: learning steps, then days for Easy', () => {
    const next = nextIntervals(parameters, null, now)
    expect(next.map((n) => n.grade)).toEqual([1, 2, 3, 4])
    // ts-fsrs's default learning steps (1 min, 10 min): Again 1 min, Hard 6 min, Good 10 min.
    expect(labels(next).slice(0, 3)).toEqual(['1 minute', '6 minute', '10 minute'])
    expect(next[3]?.label.unit).toBe('day')
    expect(next.every((n, i) => i === 0 || n.seconds >= (next[i - 1]?.seconds ?? 0))).toBe(true)
    expect(next[2]?.due).toBe(new Date(now.getTime() + 10 * 60_000).toISOString())
  })

  it('grades a new word into learning, then into review days later', () => {
    const first = review(parameters, null, now, 3)
    expect(first.card).toMatchObject({ state: 1, reps: 1, lapses: 0, lastReview: now })
    // The log keeps the card's state before the grade: new.
    expect(first.log).toMatchObject({ rating: 3, state: 0 })
    const later = new Date(now.getTime() + 10 * 60_000)
    const second = review(parameters, first.card, later, 3)
    expect(second.card.state).toBe(2)
    expect(second.card.scheduledDays).toBeGreaterThanOrEqual(1)
    expect(scheduleOf(second.card, 2, later)).toMatchObject({ state: 'review', reps: 2, version: 2 })
    // Intervals of a card in review grow with the grade, in days for Good and Easy.
    const next = nextIntervals(parameters, second.card, second.card.due)
    expect(next[0]?.label.unit).toBe('minute')
    expect(next[2]?.label.unit).toMatch(/day|month/)
    expect((next[3]?.seconds ?? 0) > (next[2]?.seconds ?? 0)).toBe(true)
  })

  it('"Again" on a card in review is a lapse into relearning', () => {
    const learnt = review(parameters, review(parameters, null, now, 3).card, new Date(now.getTime() + 600_000), 3).card
    const lapse = review(parameters, learnt, learnt.due, 1).card
    expect(lapse).toMatchObject({ state: 3, lapses: 1 })
  })

  it('takes a review stamped by a clock days ahead as just now: the intervals of a card due, and its grade', () => {
    const learnt = review(parameters, review(parameters, null, now, 3).card, new Date(now.getTime() + 600_000), 3).card
    const ahead = { ...learnt, lastReview: new Date(learnt.due.getTime() + 12 * 86_400_000) }
    const next = nextIntervals(parameters, ahead, learnt.due)
    expect(next).toEqual(nextIntervals(parameters, { ...learnt, lastReview: learnt.due }, learnt.due))
    expect(review(parameters, ahead, learnt.due, 3).card.reps).toBe(learnt.reps + 1)
  })

  it('describes a word not seen yet as new, due now, version 0', () => {
    expect(scheduleOf(null, 0, now)).toEqual({ state: 'new', due: now.toISOString(), reps: 0, lapses: 0, lastReview: null, version: 0 })
  })
})

describe('interval labels', () => {
  it.each([
    [0, 1, 'minute'],
    [59, 1, 'minute'],
    [600, 10, 'minute'],
    [3599, 1, 'hour'],
    [5 * 3600, 5, 'hour'],
    [86_400, 1, 'day'],
    [3 * 86_400, 3, 'day'],
    [29 * 86_400, 29, 'day'],
    [45 * 86_400, 2, 'month'],
    [364 * 86_400, 11, 'month'],
    [400 * 86_400, 1.1, 'year'],
    [20 * 365 * 86_400, 20, 'year'],
  ])('%d s is %d %s', (seconds, value, unit) => {
    expect(intervalLabel(seconds)).toEqual({ value, unit })
  })
})
