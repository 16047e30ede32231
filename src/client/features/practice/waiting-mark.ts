import { waitingMark } from '@/client/lib/waiting-answers'

/** Marks whether answers of `userId` wait in the outbox, for any page to send (lib/waiting-answers.ts). */
export function markAnswersWaiting(userId: string, waiting: boolean): void {
  try {
    if (waiting) localStorage.setItem(waitingMark(userId), '1')
    else localStorage.removeItem(waitingMark(userId))
  } catch {
    // No localStorage: the answers are sent from /practice only.
  }
}
