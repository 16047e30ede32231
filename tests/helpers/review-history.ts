import path from 'node:path'
import { type FSRSState, FSRSAlgorithm, generatorParameters } from 'ts-fsrs'
import type { PracticeGrade } from '@/shared/practice'
import { seededRandom } from '@/shared/practice-ways'
import type { ReviewRecord } from '@/server/api/practice/memory-model'
import { stock, writeAnkiPackage } from './anki-package'

/**
 * Review histories drawn from a known FSRS model, for the memory model's tests (unit: the fit;
 * API: a learner's imported history): what a learner of those parameters would have answered.
 */

const DAY = 86_400_000

/** The seeded random numbers the practice page picks ways with (mulberry32). */
export const seeded = seededRandom

/** A learner unlike FSRS's defaults: slower to forget at first, steeper forgetting (decay 0.4). */
export const knownWeights = [1, 3, 6, 20, 5.5, 0.6, 2, 0.02, 1.3, 0.25, 1.2, 1, 0.1, 0.4, 2, 0.4, 2.5, 0.5, 0.1, 0.05, 0.4]

/**
 * A history drawn from the known model: each card is first graded on one of the first 30 days
 * after `start` (08:00 UTC plus up to 8 hours; a learning step the same day after Again or Hard),
 * then reviewed `reviews` times (10–20 by default) at the interval the model gives for 90% retention
 * (jittered from ×0.75 to ×1.35), recalled with the probability its retrievability gives; a lapse
 * is relearnt the same day. Returned shuffled.
 */
export function simulateHistory(
  cards: number,
  seed: number,
  options: { start?: number; reviews?: (random: () => number) => number } = {},
): ReviewRecord[] {
  const start = options.start ?? Date.UTC(2026, 0, 5)
  const reviewsOf = options.reviews ?? ((random) => 10 + Math.floor(random() * 11))
  const at = (day: number, minutes: number) => new Date(start + day * DAY + (8 * 60 + minutes) * 60_000)
  const random = seeded(seed)
  const model = new FSRSAlgorithm(generatorParameters({ w: knownWeights }))
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
    const reviews = reviewsOf(random)
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

/** When `historyPackage`'s reviews start: they end on 2026-02-26. */
const HISTORY_START = Date.UTC(2025, 0, 1)

/**
 * An Anki package (written into `folder`) of `cards` basic notes, one card each, with a history
 * drawn from the known model (seed 9, 2–3 reviews after the first day: 622 answers for 150 cards,
 * 2025-01-01 to 2026-02-26), every card in review and due on the day of `due`. A fit of this
 * history predicts it better than FSRS's defaults (log loss 0.337 → 0.310).
 */
export async function historyPackage(folder: string, cards: number, due: Date): Promise<{ file: string; reviews: number }> {
  const history = simulateHistory(cards, 9, { start: HISTORY_START, reviews: (random) => 2 + Math.floor(random() * 2) })
  const byCard = new Map<string, ReviewRecord[]>()
  for (const review of history) byCard.set(review.cardKey, [...(byCard.get(review.cardKey) ?? []), review])
  const keys = [...byCard.keys()]
  const file = path.join(folder, `history-${cards}.apkg`)
  await writeAnkiPackage(file, {
    format: 'anki21',
    created: HISTORY_START / 1000,
    decks: [{ id: 1, name: 'Default' }, { id: 100, name: 'History' }],
    noteTypes: [stock.basic],
    notes: keys.map((key, i) => ({ id: i + 1, guid: `g-${key}`, noteTypeId: stock.basic.id, fields: [`word ${i}`, `meaning ${i}`] })),
    cards: keys.map((key, i) => ({
      id: 1000 + i,
      noteId: i + 1,
      deckId: 100,
      type: 2,
      queue: 2,
      due: Math.floor((due.getTime() - HISTORY_START) / DAY),
      interval: 10,
      factor: 2500,
      reps: byCard.get(key)?.length ?? 0,
      lapses: 0,
    })),
    reviews: keys.flatMap((key, i) =>
      (byCard.get(key) ?? [])
        .sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime())
        .map((review, n) => ({
          // Unique across cards (two answers in one minute): the time to the millisecond.
          id: review.reviewedAt.getTime() + i,
          cardId: 1000 + i,
          ease: review.rating,
          interval: 1,
          lastInterval: 0,
          factor: 2500,
          time: 3000,
          type: n === 0 ? 0 : 1,
        })),
    ),
  })
  return { file, reviews: history.length }
}
