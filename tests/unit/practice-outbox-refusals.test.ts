import { describe, expect, it } from 'vitest'
import type { GradeResult } from '@/shared/practice'
import { ApiRequestError } from '@/client/lib/http-error'
import { memoryStore, replay } from '@/client/features/practice/outbox'

// A new word graded offline whose day's new words were started meanwhile (on another device), or
// whose level is no longer the learner's: the server refuses it for good (409
// new_word_not_allowed), so the outbox drops it rather than sending it again at every round.

const answer = (wordId: number) => ({
  clientId: `00000000-0000-4000-8000-00000000010${wordId}`,
  wordId,
  grade: 3 as const,
  version: 0,
  reviewedAt: '2026-11-27T10:00:00Z',
})

describe('an answer the server no longer allows', () => {
  it('is dropped, and the answers after it are sent', async () => {
    const store = memoryStore()
    for (const wordId of [1, 2]) await store.add(answer(wordId))
    const sent: number[] = []
    const dropped: unknown[] = []
    const done = await replay(
      store,
      (entry) => {
        if (entry.wordId === 1) return Promise.reject(new ApiRequestError(409, 'new_word_not_allowed', 'No new word is left'))
        sent.push(entry.wordId)
        return Promise.resolve({ clientId: entry.clientId, wordId: entry.wordId } as GradeResult)
      },
      { dropped: (_, error) => dropped.push(error) },
    )
    expect(done).toBe(true)
    expect(sent).toEqual([2])
    expect(dropped).toMatchObject([{ code: 'new_word_not_allowed' }])
    expect(await store.read()).toEqual([])
  })
})
