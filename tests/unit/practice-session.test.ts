import { describe, expect, it, vi } from 'vitest'
import type { GradeResult, PracticeCard, PracticeQueue } from '@/shared/practice'
import type { GradeToSend } from '@/client/features/practice/api/grades'
import { ApiRequestError, NetworkError } from '@/client/lib/http-error'
import { GradeOutbox, afterFailure, memoryStore, replay } from '@/client/features/practice/outbox'
import { formatInterval } from '@/client/features/practice/interval'
import { cardsLeft, newSession, sessionReducer, upcoming, type Session, type SessionAction } from '@/client/features/practice/session'

// The practice page's pure rules: the order of the cards in a session (due first, as the server
// sends them; an undone card in front; a graded one never again), and the outbox's replay order.

const card = (wordId: number, kind: 'due' | 'new' = 'due', version = kind === 'new' ? 0 : 1): PracticeCard => ({
  wordId,
  language: 'en',
  text: `word ${wordId}`,
  translationEn: `gloss ${wordId}`,
  translationRu: `слово ${wordId}`,
  example: null,
  partOfSpeech: null,
  html: null,
  choices: null,
  kind,
  schedule: { state: kind === 'new' ? 'new' : 'review', due: '2026-11-27T00:00:00Z', reps: 0, lapses: 0, lastReview: null, version },
  next: [],
})

const queueOf = (cards: PracticeCard[], extra = 0): PracticeQueue => ({
  cards,
  dueNow: cards.filter((c) => c.kind === 'due').length + extra,
  newLeft: cards.filter((c) => c.kind === 'new').length,
  newWords: { status: 'available', levelCode: 'A1', language: 'en' },
  ways: ['flashcard'],
  laterToday: { count: 0, next: null },
  at: '2026-11-27T00:00:00Z',
})

const run = (actions: SessionAction[], from: Session = newSession()) => actions.reduce(sessionReducer, from)
const ids = (cards: PracticeCard[]) => cards.map((c) => c.wordId)

describe('a practice session', () => {
  const cards = [card(1), card(2), card(3, 'new'), card(4, 'new')]

  it('keeps the server order: due cards, then new words', () => {
    expect(ids(upcoming(newSession(), cards))).toEqual([1, 2, 3, 4])
    expect(cardsLeft(newSession(), queueOf(cards))).toBe(4)
  })

  it('never shows a graded card again in the session, even when the queue has it again', () => {
    const session = run([
      { type: 'pin', card: cards[0]! },
      { type: 'reveal' },
      { type: 'graded', graded: { card: cards[0]!, clientId: 'a', grade: 1 } },
    ])
    expect(session.pinned).toBeNull()
    expect(session.revealed).toBe(false)
    // "Again": due a minute later, the server sends it first again.
    expect(ids(upcoming(session, [card(1, 'due', 2), ...cards.slice(1)]))).toEqual([2, 3, 4])
    expect(session.counts).toEqual({ 1: 1, 2: 0, 3: 0, 4: 0 })
  })

  it('puts an undone card in front, as it is now, and on screen', () => {
    const graded = run([
      { type: 'pin', card: cards[0]! },
      { type: 'graded', graded: { card: cards[0]!, clientId: 'a', grade: 3 } },
      { type: 'pin', card: cards[1]! },
    ])
    const restored = card(1, 'due', 3)
    const undone = sessionReducer(graded, { type: 'undone', card: restored })
    expect(undone.pinned).toBe(restored)
    expect(undone.last).toBeNull()
    expect(undone.counts[3]).toBe(0)
    // The refetched queue no longer has it (not due): it comes first anyway, once.
    expect(ids(upcoming(undone, cards.slice(1)))).toEqual([1, 2, 3, 4])
    expect(ids(upcoming(undone, cards))).toEqual([1, 2, 3, 4])
  })

  it('keeps the card on screen when another tab graded it, and counts it as left', () => {
    const session = run([{ type: 'pin', card: cards[0]! }])
    // Graded elsewhere: the queue read again has it no more.
    const queue = queueOf(cards.slice(1))
    expect(session.pinned?.wordId).toBe(1)
    expect(cardsLeft(session, queue)).toBe(4)
    const refused = run(
      [
        { type: 'graded', graded: { card: cards[0]!, clientId: 'a', grade: 3 } },
        { type: 'refused', clientId: 'a', grade: 3 },
      ],
      session,
    )
    expect(refused.counts[3]).toBe(0)
    expect(refused.last).toBeNull()
    expect(cardsLeft(refused, queue)).toBe(3)
  })

  it('counts what the server has beyond the fetched cards, and skips answers still waiting', () => {
    expect(cardsLeft(newSession(), queueOf(cards, 150))).toBe(154)
    const session = run([{ type: 'waiting', wordIds: [2, 3] }])
    expect(ids(upcoming(session, cards))).toEqual([1, 4])
  })

  it('starts another round with the cards due again', () => {
    const session = run([
      { type: 'graded', graded: { card: cards[0]!, clientId: 'a', grade: 1 } },
      { type: 'again' },
    ])
    expect(ids(upcoming(session, cards))).toEqual([1, 2, 3, 4])
  })
})

const entry = (n: number): GradeToSend => ({
  clientId: `00000000-0000-4000-8000-00000000000${n}`,
  wordId: n,
  grade: 3,
  version: 0,
  reviewedAt: '2026-11-27T10:00:00Z',
})

const result = (sent: GradeToSend): GradeResult => ({
  clientId: sent.clientId,
  wordId: sent.wordId,
  grade: sent.grade,
  reviewedAt: sent.reviewedAt,
  day: '2026-11-27',
  schedule: { state: 'learning', due: sent.reviewedAt, reps: 1, lapses: 0, lastReview: sent.reviewedAt, version: 1 },
  undone: false,
})

describe('the outbox of grades', () => {
  it('sends in the order given, and stops at a failure that may pass, keeping the rest in order', async () => {
    const store = memoryStore()
    for (const n of [1, 2, 3]) await store.add(entry(n))
    const sent: number[] = []
    let online = false
    const send = (e: GradeToSend) => {
      if (!online) return Promise.reject(new NetworkError())
      sent.push(e.wordId)
      return Promise.resolve(result(e))
    }
    expect(await replay(store, send)).toBe(false)
    expect((await store.read()).map((e) => e.wordId)).toEqual([1, 2, 3])
    online = true
    expect(await replay(store, send)).toBe(true)
    expect(sent).toEqual([1, 2, 3])
    expect(await store.read()).toEqual([])
  })

  it('drops an answer the server refuses (graded elsewhere) and goes on', async () => {
    const store = memoryStore()
    for (const n of [1, 2]) await store.add(entry(n))
    const dropped: number[] = []
    const done = await replay(
      store,
      (e) => (e.wordId === 1 ? Promise.reject(new ApiRequestError(409, 'conflict', 'graded')) : Promise.resolve(result(e))),
      { dropped: (e) => dropped.push(e.wordId) },
    )
    expect(done).toBe(true)
    expect(dropped).toEqual([1])
  })

  it('tells failures apart', () => {
    expect(afterFailure(new NetworkError())).toBe('later')
    expect(afterFailure(new ApiRequestError(503, 'unknown', ''))).toBe('later')
    expect(afterFailure(new ApiRequestError(429, 'rate_limited', ''))).toBe('later')
    expect(afterFailure(new ApiRequestError(409, 'conflict', ''))).toBe('drop')
    expect(afterFailure(new ApiRequestError(404, 'not_found', ''))).toBe('drop')
  })

  it('withdraws an answer not sent yet, and waits for one on its way', async () => {
    const store = memoryStore()
    let release: (() => void) | undefined
    const box = new GradeOutbox(store, (e) =>
      e.wordId === 2 ? new Promise((resolve) => (release = () => resolve(result(e)))) : Promise.reject(new NetworkError()),
    )
    await store.add(entry(1))
    await box.flush()
    expect(await box.withdraw(entry(1).clientId)).toBe('withdrawn')
    await box.add(entry(2))
    await vi.waitFor(() => expect(release).toBeDefined())
    const withdrawing = box.withdraw(entry(2).clientId)
    release?.()
    expect(await withdrawing).toBe('sent')
  })

  it('knows an answer a round read just before the undo took it out of the store: it is sent, the server must undo it', async () => {
    const store = memoryStore()
    const sent: number[] = []
    const box = new GradeOutbox(store, (e) => {
      sent.push(e.wordId)
      return Promise.resolve(result(e))
    })
    await store.add(entry(1))
    // The round reads the store; the undo, pressed in the same moment, removes the answer after.
    const round = box.flush()
    expect(await box.withdraw(entry(1).clientId)).toBe('sent')
    await round
    expect(sent).toEqual([1])
  })

  it('counts an answer the server refused as never sent', async () => {
    const box = new GradeOutbox(memoryStore(), () => Promise.reject(new ApiRequestError(409, 'conflict', 'graded')))
    await box.add(entry(1))
    await box.flush()
    expect(await box.withdraw(entry(1).clientId)).toBe('withdrawn')
  })
})

describe('next intervals', () => {
  it('reads as a person says them', () => {
    expect(formatInterval('en', 600)).toBe('10 min')
    expect(formatInterval('en', 3 * 86_400)).toBe('3 days')
    expect(formatInterval('ru', 3 * 86_400)).toBe('3 дня')
  })
})
