import { createRequire } from 'node:module'
import { type FSRSState, FSRSAlgorithm, generatorParameters } from 'ts-fsrs'
import type { PracticeGrade } from '@/shared/practice'
import { defaultFsrsParameters } from './scheduler'

/**
 * A learner's memory model: FSRS parameters fitted to their review history by fsrs-rs's optimizer
 * (the native build of its Node binding, `@open-spaced-repetition/binding`), and how well a set of
 * parameters predicts that history (log loss, computed with ts-fsrs, the scheduler the parameters
 * are for). Pure: the history is given, nothing is read or stored. Days are counted as ts-fsrs
 * counts a card's elapsed days: whole UTC calendar days between two reviews, 0 within one.
 */

/** One grade of a learner's history, in any order. */
export interface ReviewRecord {
  cardKey: string
  reviewedAt: Date
  rating: PracticeGrade
}

/** A review as the optimizer takes it: its grade and the days since the card's previous review. */
interface TrainingReview {
  rating: PracticeGrade
  deltaT: number
}

/** The optimizer's training item: a card's reviews, oldest first, up to the one it predicts. */
export interface TrainingItem {
  reviews: TrainingReview[]
}

/** The learner's cards, each with its reviews oldest first (equal times in the given order). */
function byCard(reviews: readonly ReviewRecord[]): ReviewRecord[][] {
  const cards = new Map<string, ReviewRecord[]>()
  for (const review of reviews) {
    const card = cards.get(review.cardKey)
    if (card) card.push(review)
    else cards.set(review.cardKey, [review])
  }
  const ordered = [...cards.values()]
  for (const card of ordered) card.sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime())
  return ordered
}

const DAY_MS = 86_400_000

/**
 * A card's reviews with the days since the one before: 0 for the first, and within a UTC day.
 * The count of ts-fsrs's `dateDiffInDays` (whole UTC days between the dates), at a fraction of its
 * cost.
 */
function withDeltas(card: readonly ReviewRecord[]): TrainingReview[] {
  let previousDay: number | null = null
  return card.map(({ rating, reviewedAt }) => {
    const day = Math.floor(reviewedAt.getTime() / DAY_MS)
    const deltaT = previousDay === null ? 0 : Math.max(0, day - previousDay)
    previousDay = day
    return { rating, deltaT }
  })
}

/** One card's training items: its reviews up to each after the first, once one is a day or more on. */
function cardItems(card: readonly ReviewRecord[]): TrainingItem[] {
  const history = withDeltas(card)
  const items: TrainingItem[] = []
  let longTerm = false
  for (let i = 1; i < history.length; i++) {
    longTerm ||= (history[i]?.deltaT ?? 0) > 0
    if (longTerm) items.push({ reviews: history.slice(0, i + 1) })
  }
  return items
}

/**
 * The optimizer's training items from a history, as fsrs-rs converts Anki's: per card, one item
 * per review after the first (the card's reviews up to it); items with no review a day or more
 * after the one before (a card's first day of learning steps) are left out, as fsrs-rs does.
 */
export const reviewItems = (reviews: readonly ReviewRecord[]): TrainingItem[] => byCard(reviews).flatMap(cardItems)

/** The settings the app schedules with: short-term memory on, its relearning steps. */
const scheduling = defaultFsrsParameters()

/** A review as fsrs-rs's Node binding holds it. */
interface NativeReview {
  readonly rating: number
  readonly deltaT: number
}
/** A training item as fsrs-rs's Node binding holds it. */
interface NativeItem {
  readonly reviews: NativeReview[]
}

/** What is used here of fsrs-rs's Node binding (napi-rs), as @open-spaced-repetition/binding 0.5.0 types it. */
interface Optimizer {
  FSRSBindingReview: new (rating: number, deltaT: number) => NativeReview
  FSRSBindingItem: new (reviews: NativeReview[]) => NativeItem
  computeParameters: (
    trainSet: NativeItem[],
    options: { enableShortTerm: boolean; numRelearningSteps?: number; timeout?: number },
  ) => Promise<number[]>
}

const OPTIMIZER_PACKAGE = '@open-spaced-repetition/binding-linux-x64-gnu'
let optimizer: Optimizer | undefined

/**
 * The optimizer's native build, loaded on first use (not at the server's start): the build for
 * Linux x64 (glibc), an optional dependency, without the binding's own package, which also lists
 * builds for ten other platforms that the registry does not have at its version (0.5.0), so that
 * `npm ci` refuses the lock.
 */
function loadOptimizer(): Optimizer {
  try {
    optimizer ??= createRequire(import.meta.url)(OPTIMIZER_PACKAGE) as Optimizer
  } catch (error) {
    throw new Error(`The FSRS optimizer (${OPTIMIZER_PACKAGE}) is not installed for ${process.platform}-${process.arch}`, { cause: error })
  }
  return optimizer
}

/** The longest the event loop is held building the optimizer's items before it may run. */
const SLICE_MS = 10
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * FSRS parameters (21, FSRS-6, as ts-fsrs takes them) fitted to the history by fsrs-rs, and the
 * number of training items it had (`reviews`). With too few fsrs-rs returns its defaults (fewer
 * than 8 items after its outlier filter) or fits only the first-grade stabilities (fewer than 64).
 * It trains on the libuv thread pool; its items are built here in slices of 10 ms. The event loop
 * is still held up to about 0.1 s in all for 50,000 reviews (V8 collecting the binding's objects,
 * the grouping by card, the binding's copy of the items), 25 ms for 5,000.
 */
export async function fitParameters(reviews: readonly ReviewRecord[]): Promise<{ parameters: number[]; reviews: number }> {
  const { FSRSBindingItem, FSRSBindingReview, computeParameters } = loadOptimizer()
  const trainSet: NativeItem[] = []
  let sliceStart = performance.now()
  for (const card of byCard(reviews)) {
    // A card's items share its reviews (the item's constructor copies them).
    const native = new Map<TrainingReview, NativeReview>()
    for (const item of cardItems(card)) {
      const itemReviews = item.reviews.map((review) => {
        let made = native.get(review)
        if (!made) native.set(review, (made = new FSRSBindingReview(review.rating, review.deltaT)))
        return made
      })
      trainSet.push(new FSRSBindingItem(itemReviews))
    }
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn()
      sliceStart = performance.now()
    }
  }
  const parameters = await computeParameters(trainSet, {
    enableShortTerm: scheduling.enable_short_term,
    numRelearningSteps: scheduling.relearning_steps.length,
    // How often its progress is polled (ms): the result waits for a poll, 500 ms by default.
    timeout: 10,
  })
  return { parameters, reviews: trainSet.length }
}

/** Predictions are kept off 0 and 1 (0.0001 to 0.9999), so that one surprise is not an infinite loss. */
const clampRecall = (r: number) => Math.min(0.9999, Math.max(0.0001, r))

/**
 * The mean binary log loss of predicting recall (a grade above Again) by the card's retrievability
 * before each review, under `parameters` (17, 19 or 21, as ts-fsrs takes them): each card's memory
 * state is replayed with ts-fsrs from its first review. Only reviews a day or more after the one
 * before are predicted (within a day ts-fsrs's retrievability is 1); NaN when there are none.
 */
export function logLoss(reviews: readonly ReviewRecord[], parameters: readonly number[]): number {
  const model = new FSRSAlgorithm(generatorParameters({ ...scheduling, w: [...parameters] }))
  let total = 0
  let predicted = 0
  for (const card of byCard(reviews)) {
    let state: FSRSState | null = null
    for (const { rating, deltaT } of withDeltas(card)) {
      if (state && deltaT > 0) {
        const r = clampRecall(model.forgetting_curve(deltaT, state.stability))
        total -= Math.log(rating > 1 ? r : 1 - r)
        predicted++
      }
      state = model.next_state(state, deltaT, rating)
    }
  }
  return predicted ? total / predicted : Number.NaN
}
