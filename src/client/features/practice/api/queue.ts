import { queryOptions } from '@tanstack/react-query'
import { useCallback } from 'react'
import type { PracticeQueue } from '@/shared/practice'
import { practiceKeys, usePracticeCache } from '@/client/api/practice-progress'
import { api } from '@/client/lib/api'
import { sendUndo } from './grades'

/**
 * The practice page's queue of cards (docs/product.md §11), under `practiceKeys.all` with today's
 * summary and the settings (client/api/practice-progress.ts).
 */
const queueKey = [...practiceKeys.all, 'queue'] as const

/**
 * Cards fetched at once: ahead of what the learner sees, so that the session goes on offline.
 * More than a day's new words (10 by default) and a good morning's due cards.
 */
const QUEUE_AHEAD = 100

/** The day's queue, or with `deck` the cards of that one deck (docs/product.md §12). */
export const practiceQueueQuery = (deck?: number) =>
  queryOptions({
    queryKey: deck === undefined ? queueKey : [...queueKey, { deck }],
    queryFn: ({ signal }) =>
      api<PracticeQueue>(`/me/practice/queue?limit=${QUEUE_AHEAD}${deck === undefined ? '' : `&deck=${deck}`}`, { signal }),
    // The session keeps what it was given while offline: nothing is thrown away unread.
    gcTime: Number.POSITIVE_INFINITY,
    // Read again after a grade in another tab (the page keeps the card on screen), a change of a
    // level's words (the cards to practise may be others), of a level or of one's account.
    meta: { live: { practice: true, words: true, levels: true, account: true } },
  })

/** Undoes the latest grade the server has; today's counts are read again. */
export function useUndoGrade() {
  const { todayChanged } = usePracticeCache()
  return useCallback(
    async (clientId: string) => {
      const undone = await sendUndo(clientId)
      todayChanged()
      return undone
    },
    [todayChanged],
  )
}
