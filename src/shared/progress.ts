/**
 * `/progress` (docs/product.md §13): the learner's reviews a day, true retention, the forecast of
 * the days ahead and their cards by state, in their own time zone. The API's answer type, without
 * a validation library; docs/decisions/0034-progress.md says what counts and why.
 */

/** Days of reviews answered: the chart shows the last 30 or all of them. */
export const PROGRESS_REVIEW_DAYS = 90
/** Days of reviews that true retention is measured over (ending today). */
export const RETENTION_DAYS = 30
/** Days of the forecast, starting today. */
export const FORECAST_DAYS = 30

export interface ProgressDay {
  /** The learner's date, YYYY-MM-DD. */
  date: string
  count: number
}

export interface Progress {
  /** Today in the learner's time zone, and that zone. */
  day: string
  timeZone: string
  /** Reviews counted (not undone) on each of the last 90 days, oldest first, today last. */
  reviews: ProgressDay[]
  /**
   * Over the last 30 days: reviews of cards in review state (the state before the grade), and of
   * them those not answered "Again"; `rate` is `passed / reviews`, null when there are none.
   */
  retention: { reviews: number; passed: number; rate: number | null }
  /** Cards due on each of the next 30 days, today first (cards overdue count on today). */
  forecast: ProgressDay[]
  /** The learner's cards by state: suspended ones only under `suspended`. */
  states: { new: number; learning: number; review: number; relearning: number; suspended: number }
}
