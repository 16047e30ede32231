/**
 * Which cards the ways to practise beyond the flashcard fit (PRODUCT §13), and the seed that makes
 * a card's way and choices the same on every read of one review: shared by the server (which picks
 * the choices) and the client (which picks the way). docs/decisions/0036-ways-to-practise.md.
 */

/** An answer typed or chosen is a word or a short phrase: at most this many characters… */
const ANSWER_MAX_CHARS = 40
/** …and words. */
const ANSWER_MAX_WORDS = 4

/** Whether an imported side shows more than its text: a picture or a sound. */
export const showsMore = (html: string) => html.includes('<img') || html.includes('<audio-ref')

/**
 * Whether a card's `text` can be typed or chosen: a plain, short word or phrase (one line, at most
 * four words and 40 characters, no cloze brackets or blanks), and for an imported card, sides that
 * hold nothing but their text (a picture on the front is part of the question; one on the back,
 * of the translation shown as the prompt). Other cards are practised as flashcards.
 */
export function answerable(card: { text: string; html: { front: string; back: string } | null }): boolean {
  const text = card.text.trim()
  if (text === '' || text.length > ANSWER_MAX_CHARS || /[\n[\]{}_]|\.\.\.|…/u.test(text)) return false
  if (text.split(/\s+/u).length > ANSWER_MAX_WORDS) return false
  return card.html === null || !(showsMore(card.html.front) || showsMore(card.html.back))
}

/** A 32-bit mix of a card and its review (murmur3's finaliser): the same card and review, the same number. */
export function reviewHash(wordId: number, reps: number): number {
  let h = (Math.imul(wordId, 0x9e3779b1) ^ Math.imul(reps + 1, 0x85ebca6b)) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** Numbers in [0, 1) from a seed (mulberry32): the choices of one review in one order. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
