import { sendGrade } from '@/client/api/practice'
import { replay } from './outbox'
import { indexedDbStore } from './outbox-store'
import { markAnswersWaiting } from './waiting-mark'

let sending: Promise<void> | null = null

/**
 * Sends the answers waiting in `userId`'s outbox, in order (lib/waiting-answers.ts): once all are
 * in, nothing is marked as waiting any more. One round at a time in this tab.
 */
export function sendWaiting(userId: string): Promise<void> {
  sending ??= (async () => {
    try {
      const store = indexedDbStore(userId)
      if (await replay(store, sendGrade)) markAnswersWaiting(userId, false)
    } finally {
      sending = null
    }
  })()
  return sending
}
