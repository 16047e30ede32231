import { type FSRSState, FSRSAlgorithm, dateDiffInDays, default_w, generatorParameters } from 'ts-fsrs'
import { describe, expect, it } from 'vitest'
import type { PracticeGrade } from '@/shared/practice'
import { type ReviewRecord, fitParameters, logLoss, reviewItems } from '@/server/api/practice/memory-model'

const DAY = 86_400_000
const start = Date.UTC(2026, 0, 5)
/** A time on day `day` after `start`: 08:00 UTC plus `minutes`. */
const at = (day: number, minutes = 0) => new Date(start + day * DAY + (8 * 60 + minutes) * 60_000)

/** A deterministic random number generator (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** A learner unlike FSRS's defaults: slower to forget at first, steeper forgetting (decay 0.4). */
const known = [1, 3, 6, 20, 5.5, 0.6, 2, 0.02, 1.3, 0.25, 1.2, 1, 0.1, 0.4, 2, 0.4, 2.5, 0.5, 0.1, 0.05, 0.4]

/**
 * A history drawn from the known model: each card is first graded on one of the first 30 days (a
 * learning step the same day after Again or Hard), then reviewed at the interval the model gives
 * for 90% retention (jittered from ×0.75 to ×1.35), recalled with the probability its
 * retrievability gives; a lapse is relearnt the same day. Returned shuffled.
 */
function simulate(cards: number, seed: number): ReviewRecord[] {
  const random = seeded(seed)
  const model = new FSRSAlgorithm(generatorParameters({ w: known }))
  const history: ReviewRecord[] = []
  for (let c = 0; c < cards; c++) {
    const cardKey = `card-${c}`
    let day = Math.floor(random() * 30)
    /** Records the grade and returns the card's memory state after it. */
    const grade = (state: FSRSState | null, rating: PracticeGrade, minutes: number, elapsed: number) => {
      history.push({ cardKey, reviewedAt: at(day, minutes), rating })
      return model.next_state(state, elapsed, rating)
    }
    const roll = random()
    const first: PracticeGrade = roll < 0.25 ? 1 : roll < 0.35 ? 2 : roll < 0.9 ? 3 : 4
    const minutes = Math.floor(random() * 480)
    let state = grade(null, first, minutes, 0)
    if (first <= 2) state = grade(state, 3, minutes + 10, 0)
    const reviews = 10 + Math.floor(random() * 11)
    for (let r = 0; r < reviews; r++) {
      const interval = Math.max(1, Math.round(model.next_interval(state.stability, 0) * (0.75 + 0.6 * random())))
      day += interval
      const recalled = random() < model.forgetting_curve(interval, state.stability)
      const mood = random()
      const rating: PracticeGrade = !recalled ? 1 : mood < 0.15 ? 2 : mood < 0.9 ? 3 : 4
      const minutes = Math.floor(random() * 480)
      state = grade(state, rating, minutes, interval)
      if (rating === 1) state = grade(state, 3, minutes + 10, 0)
    }
  }
  for (let i = history.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[history[i], history[j]] = [history[j] as ReviewRecord, history[i] as ReviewRecord]
  }
  return history
}

describe('the optimizer’s training items', () => {
  it('are per card, oldest first, one per review after the first, with UTC calendar days between reviews', () => {
    const items = reviewItems([
      { cardKey: 'b', reviewedAt: at(3), rating: 3 },
      { cardKey: 'a', reviewedAt: at(10, 600), rating: 1 },
      { cardKey: 'a', reviewedAt: at(0), rating: 3 },
      // 22:00 one day to 07:00 the next is a day, as ts-fsrs counts a card's elapsed days.
      { cardKey: 'a', reviewedAt: at(2, -60), rating: 4 },
      { cardKey: 'a', reviewedAt: at(1, 14 * 60), rating: 3 },
      { cardKey: 'b', reviewedAt: at(5), rating: 2 },
    ])
    expect(items).toEqual([
      { reviews: [{ rating: 3, deltaT: 0 }, { rating: 2, deltaT: 2 }] },
      { reviews: [{ rating: 3, deltaT: 0 }, { rating: 3, deltaT: 1 }] },
      { reviews: [{ rating: 3, deltaT: 0 }, { rating: 3, deltaT: 1 }, { rating: 4, deltaT: 1 }] },
      { reviews: [{ rating: 3, deltaT: 0 }, { rating: 3, deltaT: 1 }, { rating: 4, deltaT: 1 }, { rating: 1, deltaT: 8 }] },
    ])
  })

  it('count days as ts-fsrs does (its dateDiffInDays)', () => {
    const random = seeded(1)
    for (let i = 0; i < 1000; i++) {
      const first = new Date(start + Math.floor(random() * 400 * DAY))
      const second = new Date(first.getTime() + Math.floor(random() * 40 * DAY))
      const [item] = reviewItems([
        { cardKey: 'a', reviewedAt: first, rating: 3 },
        { cardKey: 'a', reviewedAt: second, rating: 3 },
        { cardKey: 'a', reviewedAt: new Date(second.getTime() + DAY), rating: 3 },
      ])
      expect(item?.reviews[1]?.deltaT).toBe(dateDiffInDays(first, second))
    }
  })

  it('give same-day reviews 0 days, and leave out a card’s first day of learning steps', () => {
    const items = reviewItems([
      { cardKey: 'a', reviewedAt: at(0), rating: 1 },
      { cardKey: 'a', reviewedAt: at(0, 1), rating: 1 },
      { cardKey: 'a', reviewedAt: at(0, 11), rating: 3 },
      { cardKey: 'a', reviewedAt: at(4), rating: 1 },
      { cardKey: 'a', reviewedAt: at(4, 10), rating: 3 },
      { cardKey: 'only-today', reviewedAt: at(0), rating: 1 },
      { cardKey: 'only-today', reviewedAt: at(0, 10), rating: 3 },
      { cardKey: 'once', reviewedAt: at(0), rating: 3 },
    ])
    expect(items.map((item) => item.reviews.map(({ rating, deltaT }) => `${rating}@${deltaT}`).join(' '))).toEqual([
      '1@0 1@0 3@0 1@4',
      '1@0 1@0 3@0 1@4 3@0',
    ])
  })
})

describe('fitting the memory model', () => {
  it('measures no loss on a history with nothing to predict', () => {
    expect(logLoss([], [...default_w])).toBeNaN()
    expect(reviewItems([])).toEqual([])
  })

  it('fits a learner’s history better than the defaults (log loss), in ts-fsrs’s 21 parameters', { timeout: 30_000 }, async () => {
    const history = simulate(200, 20_260_105)
    const fitted = await fitParameters(history)
    expect(fitted.reviews).toBe(reviewItems(history).length)
    expect(fitted.parameters).toHaveLength(21)
    expect(fitted.parameters.every(Number.isFinite)).toBe(true)
    const before = logLoss(history, default_w)
    const after = logLoss(history, fitted.parameters)
    expect(after).toBeLessThan(before)
    // The model the history was drawn from is the floor the fit approaches.
    expect(after).toBeGreaterThan(logLoss(history, known) - 0.02)
  })
})
