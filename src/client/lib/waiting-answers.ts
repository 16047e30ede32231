/**
 * Answers graded offline wait in the practice page's outbox (IndexedDB) until they are sent. A
 * learner who left `/practice` before the network came back would find them sent only at the next
 * visit there, the dashboard's counts behind until then. So the outbox marks in localStorage that
 * answers of a person wait, and any page of the app sends them when the browser is online (at the
 * start, and on its `online` event): the sender's code is loaded only then. `/practice` sends its
 * own (features/practice/use-outbox.ts). A sent answer reaches every tab through the live stream.
 * The sender is the practice feature's, given by main.tsx: lib/ knows no feature.
 */
/** The localStorage key that says answers of `userId` wait (set by features/practice/waiting-mark.ts). */
export const waitingMark = (userId: string) => `lingua.answers-waiting.${userId}`

function answersWait(userId: string): boolean {
  try {
    return localStorage.getItem(waitingMark(userId)) !== null
  } catch {
    return false
  }
}

/** Sends `userId`'s waiting answers with `send`, if any wait, from any page but `/practice`. */
export function sendWaitingAnswers(userId: string, send: (userId: string) => Promise<unknown>): void {
  if (!navigator.onLine || location.pathname === '/practice' || !answersWait(userId)) return
  void send(userId).catch(() => undefined)
}
