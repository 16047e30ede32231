import { describe, expect, it } from 'vitest'
import type { PracticeCard, PracticeWay } from '@/shared/practice'
import { answerable, reviewHash, seededRandom } from '@/shared/practice-ways'
import { fittingWays, wantsVoice, wayOf } from '@/client/features/practice/ways'

// Which way each card is practised in (PRODUCT §13): the ways that fit it, picked by its review.

const all: PracticeWay[] = ['flashcard', 'type', 'choose', 'listen', 'gap']

const card = (wordId: number, extra: Partial<PracticeCard> = {}, reps = 0): PracticeCard => ({
  wordId,
  language: 'en',
  text: 'house',
  translationEn: 'a building to live in',
  translationRu: 'дом',
  example: 'Our house is small.',
  partOfSpeech: 'noun',
  html: null,
  choices: ['house', 'door', 'cat', 'tree'],
  kind: 'due',
  schedule: { state: 'review', due: '2026-11-27T00:00:00Z', reps, lapses: 0, lastReview: null, version: 1 },
  next: [],
  ...extra,
})

describe('answerable', () => {
  it('takes plain, short words and phrases', () => {
    expect(answerable({ text: 'house', html: null })).toBe(true)
    expect(answerable({ text: 'thank you very much', html: null })).toBe(true)
    expect(answerable({ text: 'el sol', html: { front: 'el sol', back: '<b>the sun</b>' } })).toBe(true)
  })
  it('leaves out long texts, cloze blanks, several lines and sides with pictures or sounds', () => {
    expect(answerable({ text: 'I would like to book a table', html: null })).toBe(false)
    expect(answerable({ text: 'x'.repeat(41), html: null })).toBe(false)
    expect(answerable({ text: 'The [...] is red', html: null })).toBe(false)
    expect(answerable({ text: 'one\ntwo', html: null })).toBe(false)
    expect(answerable({ text: '   ', html: null })).toBe(false)
    expect(answerable({ text: 'el sol', html: { front: 'el sol<img src="/api/me/media/a">', back: 'the sun' } })).toBe(false)
    expect(answerable({ text: 'el sol', html: { front: 'el sol', back: 'the sun <audio-ref src="x"></audio-ref>' } })).toBe(false)
  })
})

describe('the seeds', () => {
  it('are the same for one review and differ between reviews', () => {
    expect(reviewHash(7, 2)).toBe(reviewHash(7, 2))
    expect(new Set([0, 1, 2, 3, 4].map((reps) => reviewHash(7, reps))).size).toBe(5)
    const a = seededRandom(42)
    const b = seededRandom(42)
    const drawn = [a(), a(), a()]
    expect([b(), b(), b()]).toEqual(drawn)
    for (const n of drawn) expect(n >= 0 && n < 1).toBe(true)
  })
})

describe('the way of a card', () => {
  it('offers only the ways that fit the card', () => {
    expect(fittingWays(card(1), all)).toEqual(all)
    expect(fittingWays(card(1, { choices: null }), all)).toEqual(['flashcard', 'type', 'listen', 'gap'])
    expect(fittingWays(card(1, { example: 'Our home is small.' }), all)).toEqual(['flashcard', 'type', 'choose', 'listen'])
    expect(fittingWays(card(1, { example: null }), all)).not.toContain('gap')
    expect(fittingWays(card(1, { text: 'A whole sentence that is far too long to type' }), all)).toEqual(['flashcard'])
    expect(fittingWays(card(1), ['type', 'gap'])).toEqual(['type', 'gap'])
  })

  it('is one of those on, the same for one review, and mixes them over a session', () => {
    const ways = Array.from({ length: 60 }, (_, i) => wayOf(card(i + 1), all, true))
    expect(new Set(ways)).toEqual(new Set(all))
    expect(Array.from({ length: 60 }, (_, i) => wayOf(card(i + 1), all, true))).toEqual(ways)
    const reviews = Array.from({ length: 20 }, (_, reps) => wayOf(card(5, {}, reps), all, true))
    expect(new Set(reviews).size).toBeGreaterThan(1)
  })

  it('never listens without a voice, and is a flashcard when nothing else fits', () => {
    for (let id = 1; id <= 60; id++) expect(wayOf(card(id), all, false)).not.toBe('listen')
    expect(wayOf(card(1), ['listen'], false)).toBe('flashcard')
    expect(wayOf(card(1), ['listen'], true)).toBe('listen')
    expect(wantsVoice(card(1), ['listen'])).toBe(true)
    expect(wayOf(card(1, { text: 'The [...] is red' }), ['type', 'choose'], true)).toBe('flashcard')
    expect(wayOf(card(1), ['flashcard'], true)).toBe('flashcard')
  })
})
