/**
 * A learner's own memory model (PRODUCT §13, docs/decisions/0037-memory-model.md): FSRS parameters
 * fitted to their reviews once they have MEMORY_MODEL_MIN_REVIEWS (shared/practice.ts), and what a
 * desired retention costs in reviews a day.
 */
import { DESIRED_RETENTION_MAX, DESIRED_RETENTION_MIN } from './practice'

/**
 * - `default`: FSRS's default parameters (too few reviews, or a fit that did not predict better);
 * - `queued`: a fit is waiting for a worker; `running`: one is fitting now;
 * - `personalised`: the learner's own parameters, which predicted their reviews better.
 */
export const memoryModelStatuses = ['default', 'queued', 'running', 'personalised'] as const
export type MemoryModelStatus = (typeof memoryModelStatuses)[number]

/** The latest fit: the reviews it was fitted from, the log loss of the defaults and of the fit on them. */
interface MemoryModelFit {
  reviews: number
  logLossBefore: number
  logLossAfter: number
  fittedAt: string
}

/** The reviews a day a desired retention would cost, from the learner's cards in review now. */
export interface RetentionEstimate {
  retention: number
  reviewsPerDay: number
}

export interface MemoryModelState {
  status: MemoryModelStatus
  /** The learner's counted reviews (not undone) so far. */
  reviews: number
  /** Reviews needed before a model of one's own (MEMORY_MODEL_MIN_REVIEWS). */
  minReviews: number
  model: MemoryModelFit | null
  desiredRetention: number
  /** For 0.80, 0.85, 0.90, 0.95, 0.97 and the current desired retention, in order of retention. */
  estimates: RetentionEstimate[]
}

/** The retentions estimated always; the learner's own is added when it is not one of them. */
export const ESTIMATED_RETENTIONS = [DESIRED_RETENTION_MIN, 0.85, 0.9, 0.95, DESIRED_RETENTION_MAX] as const
