import { queryOptions } from '@tanstack/react-query'
import type { GradeResult, PracticeGrade, PracticeQueue, UndoResult } from '@/shared/practice'
import { api } from '@/client/lib/api'

/**
 * The learner's practice (docs/product.md §11): the queue of cards and its writes. Every key is
 * under `['me', 'practice']`: the live `practice` event (a grade in another tab) and an account
 * change make them stale. Today's summary and the settings are read by `practice-progress.ts`.
 */
const practiceQueueKey = ['me', 'practice', 'queue'] as const

/**
 * Cards fetched at once: ahead of what the learner sees, so that the session goes on offline.
 * More than a day's new words (10 by default) and a good morning's due cards.
 */
const QUEUE_AHEAD = 100

export const practiceQueueQuery = () =>
  queryOptions({
    queryKey: practiceQueueKey,
    queryFn: ({ signal }) => api<PracticeQueue>(`/me/practice/queue?limit=${QUEUE_AHEAD}`, { signal }),
    // The session keeps what it was given while offline: nothing is thrown away unread.
    gcTime: Number.POSITIVE_INFINITY,
  })

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
