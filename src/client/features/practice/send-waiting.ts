import { sendGrade } from './api/grades'
import { GradeOutbox } from './outbox'
import { indexedDbStore } from './outbox-store'
import { markAnswersWaiting } from './waiting-mark'

/** This tab's sender of each person's waiting answers: one round at a time, as on /practice. */
const outboxes = new Map<string, GradeOutbox>()

/**
 * Sends the answers waiting in `userId`'s outbox, in order (lib/waiting-answers.ts): once all are
 * in, nothing is marked as waiting any more.
 */
export function sendWaiting(userId: string): Promise<boolean> {
  let outbox = outboxes.get(userId)
  if (!outbox) {
    outbox = new GradeOutbox(indexedDbStore(userId), sendGrade, { settled: (empty) => markAnswersWaiting(userId, !empty) })
    outboxes.set(userId, outbox)
  }
  return outbox.flush()
}
