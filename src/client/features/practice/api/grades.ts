import type { GradeResult, PracticeGrade, UndoResult } from '@/shared/practice'
import { api } from '@/client/lib/api'

/**
 * The learner's answers on their way to the server (docs/product.md §11), apart from the cached
 * reads (queue.ts): the sender of waiting answers runs on any page, without the query cache.
 */

/** One answer, as the outbox keeps it until the server has it: `clientId` makes a resend count once. */
export interface GradeToSend {
  clientId: string
  wordId: number
  grade: PracticeGrade
  /** The card's version as read (0 for a new word). */
  version: number
  /** When the learner answered, by this device's clock (believed up to a day back). */
  reviewedAt: string
}

export const sendGrade = (grade: GradeToSend) =>
  api<GradeResult>('/me/practice/reviews', { method: 'POST', json: grade })

/** Undoes the person's latest grade (the server refuses any other, or after 10 minutes: 409). */
export const sendUndo = (clientId: string) =>
  api<UndoResult>('/me/practice/undo', { method: 'POST', json: { clientId } })
