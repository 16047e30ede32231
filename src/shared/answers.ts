/**
 * The ways to practise beyond the flashcard (PRODUCT §13): checking a typed answer, the example
 * sentence with the word left out ("Fill the gap") and the four choices ("Choose the answer"). Pure
 * rules, shared by the client (which checks offline) and the server.
 */

import type { PracticeGrade } from './practice'

/** How a typed answer compares with the expected one. */
export type AnswerVerdict = 'correct' | 'almost' | 'wrong'

/** The grades a typed answer gives: Good, Hard or Again (never Easy). */
type AnswerGrade = Extract<PracticeGrade, 1 | 2 | 3>

const verdictGrades = { correct: 3, almost: 2, wrong: 1 } as const satisfies Record<AnswerVerdict, AnswerGrade>

/**
 * Leading articles by language (ISO 639-1): whole words, followed by a space, and elided ones that
 * attach to the next word by an apostrophe (French "l'eau", Italian "un'amica").
 */
const articles: Record<string, { words: string[]; elided: string[] }> = {
  en: { words: ['the', 'a', 'an'], elided: [] },
  es: { words: ['el', 'la', 'los', 'las', 'un', 'una', 'unos', 'unas'], elided: [] },
  de: { words: ['der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'einem', 'einer', 'eines'], elided: [] },
  fr: { words: ['le', 'la', 'les', 'un', 'une', 'des'], elided: ['l'] },
  it: { words: ['il', 'lo', 'la', 'i', 'gli', 'le', 'un', 'uno', 'una'], elided: ['l', 'un'] },
  pt: { words: ['o', 'a', 'os', 'as', 'um', 'uma', 'uns', 'umas'], elided: [] },
}

/** The base language of a tag (`en-GB` → `en`), lower-cased. */
const baseLanguage = (language: string) => language.toLowerCase().split(/[-_]/)[0] ?? ''

const articlePatterns = new Map(
  Object.entries(articles).map(([language, { words, elided }]) => {
    const alternatives = [`(?:${words.join('|')}) `]
    if (elided.length > 0) alternatives.push(`(?:${elided.join('|')})' ?`)
    // Only before something: the word "a" (or "the") alone is its own answer.
    return [language, new RegExp(`^(?:${alternatives.join('|')})(?=.)`, 'u')]
  }),
)

/** `text` without a leading article of `language` (already lower-cased, apostrophes plain). */
function withoutArticle(text: string, language: string): string {
  const pattern = articlePatterns.get(baseLanguage(language))
  return pattern ? text.replace(pattern, '') : text
}

/** Lower case by the language's rules (Turkish I → ı), or the default ones for a tag the runtime refuses. */
function lowerCase(text: string, language: string): string {
  try {
    return text.toLocaleLowerCase(language || undefined)
  } catch {
    return text.toLowerCase()
  }
}

const apostrophes = /[’‘ʼ]/gu
/** Sentence punctuation around an answer: no mistake ("¿Qué tal?" for "qué tal"). */
const edgePunctuation = /^[\s.,;:!?…¿¡"«»“”„]+|[\s.,;:!?…¿¡"«»“”„]+$/gu

/**
 * An answer as compared: NFC, lower case, one kind of apostrophe, no surrounding punctuation or
 * spaces, inner runs of spaces as one, no leading article.
 */
function normalise(text: string, language: string): string {
  const plain = lowerCase(text.normalize('NFC'), language).replace(apostrophes, "'").replace(/\s+/gu, ' ')
  return withoutArticle(plain.replace(edgePunctuation, ''), language)
}

/**
 * Letters that marks make letters of their own (Cyrillic й, ў, ї): a learner who leaves their mark
 * off writes another word (мой "my", мои "my" of many), so they keep it. ё keeps none: е for ё is
 * how Russian is usually printed.
 */
const ownLetters = new Set(['й', 'ў', 'ї'])
/** Letters without a mark to strip that a keyboard often lacks, as they are commonly typed. */
const letterFolds: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ı: 'i' }

/** A normalised answer without its accents (NFD without marks), by code point. */
function withoutAccents(normalised: string): string[] {
  return [...normalised].flatMap((char) => {
    if (ownLetters.has(char)) return [char]
    const folded = letterFolds[char]
    if (folded !== undefined) return [...folded]
    return [...char.normalize('NFD').replace(/\p{M}/gu, '')]
  })
}

/**
 * Whether `a` becomes `b` by at most one edit: a letter changed, left out or added, or two
 * neighbouring letters swapped (optimal string alignment distance ≤ 1). Linear, so that a long
 * typed answer costs nothing.
 */
function withinOneEdit(a: readonly string[], b: readonly string[]): boolean {
  const [longer, shorter] = a.length >= b.length ? [a, b] : [b, a]
  if (longer.length - shorter.length > 1) return false
  let i = 0
  while (i < shorter.length && longer[i] === shorter[i]) i++
  if (i === shorter.length) return true
  const same = (from: number, to: number) => {
    for (let k = 0; from + k < longer.length; k++) if (longer[from + k] !== shorter[to + k]) return false
    return true
  }
  if (longer.length !== shorter.length) return same(i + 1, i)
  if (same(i + 1, i + 1)) return true
  return longer[i] === shorter[i + 1] && longer[i + 1] === shorter[i] && same(i + 2, i + 2)
}

/** A typo is forgiven in answers of this many letters or more. */
const TYPO_MIN_LETTERS = 5

/**
 * Checks a typed answer (PRODUCT §13). Case, surrounding spaces, runs of inner spaces, Unicode
 * forms, sentence punctuation around it and a leading article of `language` (either side) do not
 * matter: equal is `correct` (Good). A missing or wrong accent (equal without accents, any length),
 * or one letter wrong, missing, added or two neighbours swapped in an answer of five letters or more
 * (letters of the expected answer without its article) is `almost` (Hard). Anything else, an empty
 * answer too, is `wrong` (Again). `expected` is one answer: the words' texts hold no alternatives
 * (a ";" or "/" in one is part of the answer).
 */
export function checkAnswer(typed: string, expected: string, language: string): { verdict: AnswerVerdict; grade: AnswerGrade } {
  const verdict = (value: AnswerVerdict) => ({ verdict: value, grade: verdictGrades[value] })
  const given = normalise(typed, language)
  const wanted = normalise(expected, language)
  if (given === '') return verdict('wrong')
  if (given === wanted) return verdict('correct')
  const givenLoose = withoutAccents(given)
  const wantedLoose = withoutAccents(wanted)
  if (givenLoose.join('') === wantedLoose.join('')) return verdict('almost')
  const letters = wanted.match(/[\p{L}\p{N}]/gu)?.length ?? 0
  if (letters >= TYPO_MIN_LETTERS && (withinOneEdit([...given], [...wanted]) || withinOneEdit(givenLoose, wantedLoose))) {
    return verdict('almost')
  }
  return verdict('wrong')
}

/**
 * Words that elide their vowel before the next word, by language ("l'homme", "jusqu'ici",
 * "dell'acqua"): a word may begin after their apostrophe. Elsewhere an apostrophe is inside a word
 * ("o'clock", "don't").
 */
const elisions: Record<string, readonly string[]> = {
  fr: ['l', 'd', 'j', 'm', 'n', 's', 't', 'c', 'qu', 'jusqu', 'lorsqu', 'puisqu', 'quoiqu'],
  it: ['l', 'un', 'dell', 'all', 'dall', 'nell', 'sull', 'coll', 'quell', 'c'],
}

const wordChar = /[\p{L}\p{M}\p{N}]/u
const apostrophe = /['’ʼ]/u
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The first whole-word occurrence of `word` in `example` (both NFC), or null. */
function findWhole(example: string, word: string, language: string): { start: number; end: number } | null {
  const parts = word.split(/\s+/u).filter((part) => part !== '')
  if (parts.length === 0) return null
  const source = parts.map((part) => escapeRegExp(part).replace(/['’ʼ]/gu, "['’ʼ]")).join('\\s')
  const elided = elisions[baseLanguage(language)] ?? []
  const pattern = new RegExp(source, 'giu')
  for (let match = pattern.exec(example); match; match = pattern.exec(example)) {
    const start = match.index
    const end = start + match[0].length
    if (startsWord(example, start, elided) && endsWord(example, end)) return { start, end }
    // On from the next character, not the match's end: a phrase may begin inside a refused one.
    pattern.lastIndex = start + ((example.codePointAt(start) ?? 0) > 0xffff ? 2 : 1)
  }
  return null
}

/**
 * Whether a word starts at `index`: no letter before it, nor an apostrophe inside a word ("o'clock"),
 * except after an elided word of the language ("l'homme" holds "homme").
 */
function startsWord(text: string, index: number, elided: readonly string[]): boolean {
  const before = text[index - 1]
  if (before === undefined) return true
  if (wordChar.test(before)) return false
  if (!apostrophe.test(before)) return true
  const head = /[\p{L}\p{M}\p{N}'’ʼ]*$/u.exec(text.slice(0, index - 1))?.[0] ?? ''
  return head === '' || elided.includes(head.toLowerCase())
}

/** Whether a word ends at `index`: no letter after it, nor an apostrophe followed by one ("don't"). */
function endsWord(text: string, index: number): boolean {
  const after = text[index]
  if (after === undefined) return true
  if (wordChar.test(after)) return false
  return !(apostrophe.test(after) && wordChar.test(text[index + 1] ?? ''))
}

/**
 * "Fill the gap": `example` split around the first whole-word occurrence of `word` (any case; a
 * phrase across single spaces; a word given with a leading article, "the house", also as "house"),
 * with `answer` as the example writes it. Null when the example does not hold the word as a word of
 * its own ("cat" in "category"): the card is then not offered this way. Both are taken in NFC.
 */
export function gapSentence(example: string, word: string, language: string): { before: string; after: string; answer: string } | null {
  const sentence = example.normalize('NFC')
  const full = word.normalize('NFC').trim()
  const lowered = lowerCase(full, language).replace(apostrophes, "'").replace(/\s+/gu, ' ')
  const bare = withoutArticle(lowered, language)
  for (const candidate of bare === lowered ? [full] : [full, bare]) {
    const found = findWhole(sentence, candidate, language)
    if (found) {
      return {
        before: sentence.slice(0, found.start),
        after: sentence.slice(found.end),
        answer: sentence.slice(found.start, found.end),
      }
    }
  }
  return null
}

/** A choice's key as compared: NFC, lower case, trimmed, inner spaces as one. */
export const choiceKey = (text: string) => text.normalize('NFC').toLowerCase().trim().replace(/\s+/gu, ' ')

/** `items` in a random order (Fisher–Yates by `random`), as a new array. */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const result = [...items]
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.min(i, Math.floor(random() * (i + 1)))
    ;[result[i], result[j]] = [result[j] as T, result[i] as T]
  }
  return result
}

/**
 * "Choose the answer": `answer` and up to `count - 1` (default 3) others from `candidates`, in a
 * random order. The others are of the answer's part of speech when enough are (all those there are,
 * then others), never the answer again nor one twice (by `key`: NFC, any case, trimmed). Fewer than
 * `count` when the candidates hold too few distinct ones: the card is then not offered this way
 * (the caller checks `length`). The same `random` gives the same choices. `compared`: an item's
 * `choiceKey` when the caller keeps it (the words of a level, compared for card after card).
 */
export function pickChoices<T>(
  answer: T,
  candidates: readonly T[],
  options: {
    key: (item: T) => string
    compared?: (item: T) => string
    partOfSpeech?: (item: T) => string | null
    random?: () => number
    count?: number
  },
): T[] {
  const { key, partOfSpeech, random = Math.random, count = 4 } = options
  const compared = options.compared ?? ((item: T) => choiceKey(key(item)))
  const seen = new Set([compared(answer)])
  const distinct = candidates.filter((candidate) => {
    const candidateKey = compared(candidate)
    if (seen.has(candidateKey)) return false
    seen.add(candidateKey)
    return true
  })
  const kind = partOfSpeech?.(answer) ?? null
  const sameKind = new Set(kind === null ? [] : distinct.filter((candidate) => partOfSpeech?.(candidate) === kind))
  const rest = distinct.filter((candidate) => !sameKind.has(candidate))
  const others = [...shuffled([...sameKind], random), ...shuffled(rest, random)].slice(0, Math.max(0, count - 1))
  return shuffled([answer, ...others], random)
}
