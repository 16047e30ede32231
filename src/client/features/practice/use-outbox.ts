import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { GradeResult } from '@/shared/practice'
import { type GradeToSend, sendGrade } from './api/grades'
import { GradeOutbox, memoryStore, type OutboxStore } from './outbox'
import { markAnswersWaiting } from './waiting-mark'

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
 * wait; `saved` is how many of those that had to wait were sent once the outbox emptied (for
 * "Back online — {n} answers saved"), until the next answer.
 */
export function useOutbox(userId: string | undefined, handlers: OutboxHandlers) {
  const [outbox, setOutbox] = useState<GradeOutbox | null>(null)
  const [waiting, setWaiting] = useState(0)
  const [saved, setSaved] = useState(0)
  const handlersRef = useRef(handlers)
  useEffect(() => {
    handlersRef.current = handlers
  })

  // Answers that could not be sent when given (offline, or the server unreachable), by id: once
  // they are all in, "Back online — {n} answers saved" counts them.
  const held = useRef(new Set<string>())

  useEffect(() => {
    if (!userId) return
    let closed = false
    let box: GradeOutbox | undefined
    let savedNow = 0
    let attempt = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const hold = async () => {
      if (!box || closed) return
      const entries = await box.store.read()
      for (const entry of entries) held.current.add(entry.clientId)
      setWaiting(entries.length)
    }
    const flush = () => {
      clearTimeout(timer)
      void box?.flush()
    }
    void openStore(userId).then(async (store) => {
      if (closed) return
      box = new GradeOutbox(
        store,
        sendGrade,
        {
          sent: (entry, result) => {
            if (held.current.delete(entry.clientId)) savedNow += 1
            handlersRef.current.sent(entry, result)
          },
          dropped: (entry, error) => {
            held.current.delete(entry.clientId)
            handlersRef.current.dropped(entry, error)
          },
          settled: (empty) => {
            markAnswersWaiting(userId, !empty)
            if (closed) return
            if (empty) {
              attempt = 0
              setWaiting(0)
              if (savedNow > 0) setSaved(savedNow)
              savedNow = 0
              return
            }
            void hold()
            if (navigator.onLine) timer = setTimeout(flush, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)])
          },
        },
        () => navigator.onLine,
      )
      const before = await store.read()
      if (closed) return
      handlersRef.current.waiting(before.map((entry) => entry.wordId))
      await hold()
      setOutbox(box)
      flush()
    })
    window.addEventListener('online', flush)
    return () => {
      closed = true
      clearTimeout(timer)
      window.removeEventListener('online', flush)
    }
  }, [userId])

  const add = async (entry: GradeToSend) => {
    if (!outbox) return
    setSaved(0)
    setWaiting((n) => n + 1)
    if (!navigator.onLine) held.current.add(entry.clientId)
    if (userId) markAnswersWaiting(userId, true)
    await outbox.add(entry)
  }
  /** Takes the newest answer back (GradeOutbox.withdraw); one taken out before it was sent no longer waits. */
  const withdraw = async (clientId: string): Promise<'withdrawn' | 'sent'> => {
    if (!outbox) return 'sent'
    const outcome = await outbox.withdraw(clientId)
    if (outcome === 'withdrawn') {
      held.current.delete(clientId)
      setWaiting((n) => Math.max(0, n - 1))
    }
    return outcome
  }
  return { outbox, add, withdraw, waiting, saved }
}
