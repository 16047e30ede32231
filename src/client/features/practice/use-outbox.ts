import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { GradeResult } from '@/shared/practice'
import { type GradeToSend, sendGrade } from '@/client/api/practice'
import { GradeOutbox, memoryStore, type OutboxStore } from './outbox'

function subscribeOnline(changed: () => void): () => void {
  window.addEventListener('online', changed)
  window.addEventListener('offline', changed)
  return () => {
    window.removeEventListener('online', changed)
    window.removeEventListener('offline', changed)
  }
}

/** Whether the browser believes it is online (`navigator.onLine`, followed through its events). */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, () => navigator.onLine, () => true)
}

export interface OutboxHandlers {
  /** Answers found waiting from before (a reload): their words are not shown again. */
  waiting: (wordIds: number[]) => void
  sent: (entry: GradeToSend, result: GradeResult) => void
  dropped: (entry: GradeToSend, error: unknown) => void
}

/** Waits before trying again after a failure while the browser says it is online. */
const RETRY_MS = [2_000, 5_000, 15_000, 30_000, 60_000]

async function openStore(userId: string): Promise<OutboxStore> {
  try {
    // IndexedDB's few lines load after the page shows; they are needed only to grade.
    const { indexedDbStore } = await import('./outbox-store')
    const store = indexedDbStore(userId)
    await store.read()
    return store
  } catch {
    // No IndexedDB (a private window of some browsers): the answers wait in memory.
    return memoryStore()
  }
}

/**
 * This tab's outbox of grades for the signed-in person: opened once, sent when the page opens, when
 * the network comes back, and after a failure with a growing wait. `waiting` is how many answers
 * wait; `saved` is how many were sent after the connection was lost (for "Back online — {n}
 * answers saved"), until `clearSaved`.
 */
export function useOutbox(userId: string | undefined, handlers: OutboxHandlers) {
  const [outbox, setOutbox] = useState<GradeOutbox | null>(null)
  const [waiting, setWaiting] = useState(0)
  const [saved, setSaved] = useState(0)
  const handlersRef = useRef(handlers)
  useEffect(() => {
    handlersRef.current = handlers
  })

  useEffect(() => {
    if (!userId) return
    let closed = false
    let box: GradeOutbox | undefined
    // Answers sent since the connection was lost (or found waiting after a reload).
    let away = !navigator.onLine
    let sentAway = 0
    let attempt = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const count = async () => {
      if (box && !closed) setWaiting((await box.store.read()).length)
    }
    const flush = () => {
      clearTimeout(timer)
      void box?.flush()
    }
    const offline = () => {
      away = true
    }
    void openStore(userId).then(async (store) => {
      if (closed) return
      box = new GradeOutbox(store, sendGrade, {
        sent: (entry, result) => {
          if (away) sentAway += 1
          handlersRef.current.sent(entry, result)
        },
        dropped: (entry, error) => handlersRef.current.dropped(entry, error),
        settled: (empty) => {
          void count()
          if (closed) return
          if (empty) {
            attempt = 0
            if (away && sentAway > 0) setSaved(sentAway)
            away = !navigator.onLine
            sentAway = 0
            return
          }
          away = true
          if (navigator.onLine) timer = setTimeout(flush, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)])
        },
      })
      const before = await store.read()
      if (closed) return
      if (before.length > 0) away = true
      handlersRef.current.waiting(before.map((entry) => entry.wordId))
      setWaiting(before.length)
      setOutbox(box)
      flush()
    })
    window.addEventListener('online', flush)
    window.addEventListener('offline', offline)
    return () => {
      closed = true
      clearTimeout(timer)
      window.removeEventListener('online', flush)
      window.removeEventListener('offline', offline)
    }
  }, [userId])

  const add = async (entry: GradeToSend) => {
    if (!outbox) return
    setSaved(0)
    setWaiting((n) => n + 1)
    await outbox.add(entry)
  }
  return { outbox, add, waiting, saved, clearSaved: () => setSaved(0) }
}
