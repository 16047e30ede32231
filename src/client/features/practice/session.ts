import type { PracticeCard, PracticeGrade, PracticeQueue } from '@/shared/practice'

/**
 * One practice session on `/practice`, as pure rules: which card shows, what is left, and what a
 * grade or an undo does. The server's queue may be read again at any time (a grade in another tab,
 * the live stream coming back): the card on screen stays until it is graded, and a card graded in
 * this session never shows again in it (an "Again" is due a minute later: the next session has it).
 */

interface GradedCard {
  card: PracticeCard
  clientId: string
  grade: PracticeGrade
}

export interface Session {
  /** Words graded in this session, or waiting in the outbox from an earlier one: not shown again. */
  done: ReadonlySet<number>
  /** Cards an undo put back, in front of the queue. */
  front: readonly PracticeCard[]
  /** The card on screen: kept while the queue is read again, until it is graded. */
  pinned: PracticeCard | null
  revealed: boolean
  /** The grade an undo would take back (the server undoes only the latest one). */
  last: GradedCard | null
  /** Grades given in this session that counted, by grade. */
  counts: Readonly<Record<PracticeGrade, number>>
}

export type SessionAction =
  | { type: 'pin'; card: PracticeCard }
  | { type: 'reveal' }
  | { type: 'graded'; graded: GradedCard }
  /** The last grade was taken back: the card as it is now goes to the front, on screen. */
  | { type: 'undone'; card: PracticeCard }
  /** A grade the server refused (the card was graded elsewhere): it did not count. */
  | { type: 'refused'; clientId: string; grade: PracticeGrade }
  /** Answers still waiting to be sent (from before a reload): their words are done. */
  | { type: 'waiting'; wordIds: readonly number[] }
  /** Another round: the cards due again (an "Again" a minute later) may show. */
  | { type: 'again' }

export const newSession = (): Session => ({
  done: new Set(),
  front: [],
  pinned: null,
  revealed: false,
  last: null,
  counts: { 1: 0, 2: 0, 3: 0, 4: 0 },
})

const without = (cards: readonly PracticeCard[], wordId: number) => cards.filter((card) => card.wordId !== wordId)

export function sessionReducer(session: Session, action: SessionAction): Session {
  switch (action.type) {
    case 'pin':
      return { ...session, pinned: action.card, revealed: false }
    case 'reveal':
      return session.pinned ? { ...session, revealed: true } : session
    case 'graded': {
      const { card, grade } = action.graded
      return {
        ...session,
        done: new Set(session.done).add(card.wordId),
        front: without(session.front, card.wordId),
        pinned: null,
        revealed: false,
        last: action.graded,
        counts: { ...session.counts, [grade]: session.counts[grade] + 1 },
      }
    }
    case 'undone': {
      const done = new Set(session.done)
      done.delete(action.card.wordId)
      const grade = session.last?.grade
      return {
        ...session,
        done,
        front: [action.card, ...without(session.front, action.card.wordId)],
        pinned: action.card,
        revealed: false,
        last: null,
        counts: grade ? { ...session.counts, [grade]: Math.max(0, session.counts[grade] - 1) } : session.counts,
      }
    }
    case 'refused':
      return {
        ...session,
        last: session.last?.clientId === action.clientId ? null : session.last,
        counts: { ...session.counts, [action.grade]: Math.max(0, session.counts[action.grade] - 1) },
      }
    case 'waiting':
      return action.wordIds.length === 0 ? session : { ...session, done: new Set([...session.done, ...action.wordIds]) }
    case 'again':
      return { ...newSession(), last: session.last }
  }
}

/** The cards still to come, in order: those an undo put back, then the queue's (due, then new). */
export function upcoming(session: Session, cards: readonly PracticeCard[]): PracticeCard[] {
  const inFront = new Set(session.front.map((card) => card.wordId))
  return [...session.front, ...cards.filter((card) => !session.done.has(card.wordId) && !inFront.has(card.wordId))]
}

/**
 * How many cards are left in this session: those to come, the one on screen even when the queue no
 * longer has it (graded in another tab: its grade will be refused), and those the server has
 * beyond what was fetched.
 */
export function cardsLeft(session: Session, queue: PracticeQueue): number {
  const coming = upcoming(session, queue.cards)
  const pinned = session.pinned && !coming.some((card) => card.wordId === session.pinned?.wordId) ? 1 : 0
  const beyond = Math.max(0, queue.dueNow + queue.newLeft - queue.cards.length)
  return coming.length + pinned + beyond
}

/** Grades given in the session that counted. */
export const gradesGiven = (counts: Session['counts']) => Object.values(counts).reduce((sum, n) => sum + n, 0)
