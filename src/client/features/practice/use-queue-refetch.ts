import { useEffect } from 'react'
import type { PracticeQueue } from '@/shared/practice'

/**
 * When the queue is read again besides a live event: before the fetched cards run out (the server
 * has more than one queue holds), and when the first card coming back later today is due (graded
 * "Again" a minute ago…), so that it shows without a reload.
 */
export function useQueueRefetch({
  queue,
  online,
  coming,
  finished,
  refetch,
}: {
  queue: PracticeQueue | undefined
  online: boolean
  /** How many fetched cards are still to come. */
  coming: number
  /** No card is left to show now (the queue read, the outbox open). */
  finished: boolean
  refetch: () => Promise<unknown>
}): void {
  const beyond = queue ? queue.dueNow + queue.newLeft - queue.cards.length : 0
  useEffect(() => {
    if (online && beyond > 0 && coming < 10) void refetch()
  }, [online, beyond, coming, refetch])

  const nextLater = finished ? (queue?.laterToday.next ?? null) : null
  const madeAt = queue?.at
  useEffect(() => {
    if (!nextLater || !madeAt) return
    const timer = setTimeout(() => void refetch(), Math.max(0, Date.parse(nextLater) - Date.parse(madeAt)) + 1000)
    return () => clearTimeout(timer)
  }, [nextLater, madeAt, refetch])
}
