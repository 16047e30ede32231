import { gapSentence } from '@/shared/answers'
import type { PracticeCard, PracticeWay } from '@/shared/practice'
import { answerable, reviewHash } from '@/shared/practice-ways'

/**
 * Which way a card is practised in (PRODUCT §13), as pure rules: among the ways that are on and fit
 * the card, one picked by the card and its review, so that a session mixes them and a reload shows
 * the same one. docs/decisions/0036-ways-to-practise.md.
 */

/** The ways that are on and fit `card`, in the settings' order ("Listen and type" before a voice is known). */
export function fittingWays(card: PracticeCard, ways: readonly PracticeWay[]): PracticeWay[] {
  const plain = answerable(card)
  return ways.filter((way) => {
    switch (way) {
      case 'flashcard':
        return true
      case 'type':
      case 'listen':
        return plain
      case 'choose':
        return plain && card.choices !== null
      case 'gap':
        return plain && card.example !== null && gapSentence(card.example, card.text, card.language) !== null
    }
  })
}

/**
 * The way `card` shows in: one of those that fit, by its review; "Listen and type" only with a voice
 * for its language (without one, the next that fits). A flashcard when nothing else fits, even with
 * the flashcard off: an imported card with pictures has no answer to type.
 */
export function wayOf(card: PracticeCard, ways: readonly PracticeWay[], hasVoice: boolean): PracticeWay {
  const fitting = fittingWays(card, ways)
  const start = reviewHash(card.wordId, card.schedule.reps) % Math.max(1, fitting.length)
  for (let i = 0; i < fitting.length; i++) {
    const way = fitting[(start + i) % fitting.length] as PracticeWay
    if (way !== 'listen' || hasVoice) return way
  }
  return 'flashcard'
}

/** Whether the way picked for `card` would be "Listen and type", given a voice. */
export const wantsVoice = (card: PracticeCard, ways: readonly PracticeWay[]) => wayOf(card, ways, true) === 'listen'
