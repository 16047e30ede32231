import { dateDiffInDays, default_w } from 'ts-fsrs'
import { describe, expect, it } from 'vitest'
import { fitParameters, logLoss, reviewItems } from '@/server/api/practice/memory-model'
import { knownWeights as known, seeded, simulateHistory } from '../helpers/review-history'

const DAY = 86_400_000
const start = Date.UTC(2026, 0, 5)
/** A time on day `day` after `start`: 08:00 UTC plus `minutes`. */
const at = (day: number, minutes = 0) => new Date(start + day * DAY + (8 * 60 + minutes) * 60_000)

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
    const history = simulateHistory(200, 20_260_105)
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
