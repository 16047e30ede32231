import { describe, expect, it } from 'vitest'
import { type AnswerVerdict, checkAnswer, gapSentence, pickChoices } from '@/shared/answers'

const nfd = (text: string) => text.normalize('NFD')
const grades: Record<AnswerVerdict, number> = { correct: 3, almost: 2, wrong: 1 }

type Case = [typed: string, expected: string, verdict: AnswerVerdict]

/** Each language's cases, checked with its code. */
const cases: Record<string, Case[]> = {
  en: [
    ['house', 'house', 'correct'],
    ['HOUSE', 'house', 'correct'],
    ['  house  ', 'house', 'correct'],
    ['thank   you', 'thank you', 'correct'],
    ['Thank you!', 'thank you', 'correct'],
    ['the house', 'house', 'correct'],
    ['house', 'the house', 'correct'],
    ['a house', 'the house', 'correct'],
    ['An apple.', 'apple', 'correct'],
    ['the', 'the', 'correct'],
    ['hause', 'house', 'almost'],
    ['hous', 'house', 'almost'],
    ['housse', 'house', 'almost'],
    ['hosue', 'house', 'almost'],
    ['fmaily', 'family', 'almost'],
    ['the hause', 'house', 'almost'],
    ['doar', 'door', 'wrong'],
    ['dor', 'door', 'wrong'],
    ['doors', 'door', 'wrong'],
    ['odor', 'door', 'wrong'],
    ['hsoeu', 'house', 'wrong'],
    ['huose s', 'house', 'wrong'],
    ['window', 'house', 'wrong'],
    ['', 'house', 'wrong'],
    ['   ', 'house', 'wrong'],
    ['?!', 'house', 'wrong'],
    ['the', 'house', 'wrong'],
  ],
  es: [
    ['el libro', 'libro', 'correct'],
    ['libro', 'los libros', 'almost'],
    ['libros', 'los libros', 'correct'],
    ['¿Qué tal?', 'qué tal', 'correct'],
    [nfd('canción'), 'canción', 'correct'],
    ['CANCIÓN', nfd('canción'), 'correct'],
    ['que tal', 'qué tal', 'almost'],
    ['nino', 'niño', 'almost'],
    ['cancion', 'canción', 'almost'],
    ['cancón', 'canción', 'almost'],
    ['cansion', 'canción', 'almost'],
    ['ninio', 'niño', 'wrong'],
    ['perro', 'gato', 'wrong'],
  ],
  de: [
    ['der Hund', 'Hund', 'correct'],
    ['hund', 'der Hund', 'correct'],
    ['eine Katze', 'die Katze', 'correct'],
    ['die straße', 'Straße', 'correct'],
    ['Madchen', 'Mädchen', 'almost'],
    ['uber', 'über', 'almost'],
    ['strasse', 'Straße', 'almost'],
    ['Mätchen', 'Mädchen', 'almost'],
    ['Hnud', 'Hund', 'wrong'],
    ['Hunde', 'Hund', 'wrong'],
  ],
  fr: [
    ["l'eau", 'eau', 'correct'],
    ['eau', "l'eau", 'correct'],
    ['l’eau', "l'eau", 'correct'],
    ["L' eau", 'eau', 'correct'],
    ['L’HÔPITAL', "l'hôpital", 'correct'],
    ['le café', 'café', 'correct'],
    ["aujourd'hui", 'aujourd’hui', 'correct'],
    ['cafe', 'café', 'almost'],
    ['ecole', "l'école", 'almost'],
    ['coeur', 'cœur', 'almost'],
    ['les enfants', "l'enfant", 'almost'],
    ['chat', 'chien', 'wrong'],
  ],
  ru: [
    ['Собака', 'собака', 'correct'],
    ['  СОБАКА ', 'собака', 'correct'],
    [nfd('ёлка'), 'ёлка', 'correct'],
    ['елка', 'ёлка', 'almost'],
    ['ребенок', 'ребёнок', 'almost'],
    ['сабака', 'собака', 'almost'],
    ['собак', 'собака', 'almost'],
    ['сбоака', 'собака', 'almost'],
    ['музеи', 'музей', 'almost'],
    // й is a letter of its own: мои ("my", of many) is another word than мой.
    ['мои', 'мой', 'wrong'],
    ['кит', 'кот', 'wrong'],
    ['кошка', 'собака', 'wrong'],
  ],
  tr: [
    ['ILIK', 'ılık', 'correct'],
    ['İYİ', 'iyi', 'correct'],
    ['Istanbul', 'istanbul', 'almost'],
    ['iyi', 'ıyı', 'almost'],
  ],
}

describe('checking a typed answer', () => {
  describe.each(Object.entries(cases))('in %s', (language, rows) => {
    it.each(rows)('%j for %j is %s', (typed, expected, verdict) => {
      expect(checkAnswer(typed, expected, language)).toEqual({ verdict, grade: grades[verdict] })
    })
  })

  it("lower-cases by the language's rules: Turkish I is ı, not i", () => {
    expect(checkAnswer('ILIK', 'ılık', 'tr').verdict).toBe('correct')
    // By the default rules I is i: ı for i is a missing mark.
    expect(checkAnswer('ILIK', 'ılık', 'en').verdict).toBe('almost')
  })

  it('takes a regional tag by its language, and a tag the runtime refuses without failing', () => {
    expect(checkAnswer('the house', 'house', 'en-GB').verdict).toBe('correct')
    expect(checkAnswer('HOUSE', 'house', 'not a tag!').verdict).toBe('correct')
    expect(checkAnswer('the house', 'house', 'xx').verdict).toBe('wrong')
  })

  it('does not strip an article of another language', () => {
    expect(checkAnswer('el libro', 'libro', 'en').verdict).toBe('wrong')
    expect(checkAnswer('the house', 'house', 'de').verdict).toBe('wrong')
  })

  it('checks a long answer quickly', () => {
    expect(checkAnswer('a'.repeat(100_000), 'house', 'en').verdict).toBe('wrong')
  })
})

describe('the gap in an example', () => {
  it.each([
    ['Their house has a red door.', 'house', 'en', 'Their ', 'house', ' has a red door.'],
    ['Hello, my name is Anna.', 'hello', 'en', '', 'Hello', ', my name is Anna.'],
    ['Thank you for your help.', 'thank you', 'en', '', 'Thank you', ' for your help.'],
    ['The keys are on the table.', 'the table', 'en', 'The keys are on ', 'the table', '.'],
    ['My room is small but bright.', 'the room', 'en', 'My ', 'room', ' is small but bright.'],
    ['A cat and a category.', 'cat', 'en', 'A ', 'cat', ' and a category.'],
    ["'House' is a noun.", 'house', 'en', "'", 'House', "' is a noun."],
    ['Is it a house? A HOUSE!', 'house', 'en', 'Is it a ', 'house', '? A HOUSE!'],
    ["L'homme est grand.", 'homme', 'fr', "L'", 'homme', ' est grand.'],
    ['L’homme est là.', "l'homme", 'fr', '', 'L’homme', ' est là.'],
    ["Jusqu'ici tout va bien.", 'ici', 'fr', "Jusqu'", 'ici', ' tout va bien.'],
    ['¿Dónde está el niño?', 'niño', 'es', '¿Dónde está el ', 'niño', '?'],
    ['El niño juega.', 'el niño', 'es', '', 'El niño', ' juega.'],
    ["Un po' dell'acqua.", 'acqua', 'it', "Un po' dell'", 'acqua', '.'],
    ['Canta "hola la la".', 'la la', 'es', 'Canta "hola ', 'la la', '".'],
    ['Das Mädchen liest.', nfd('das Mädchen'), 'de', '', 'Das Mädchen', ' liest.'],
    [nfd('Das Mädchen liest.'), 'Mädchen', 'de', 'Das ', 'Mädchen', ' liest.'],
    ['Собака спит, а кот нет.', 'собака', 'ru', '', 'Собака', ' спит, а кот нет.'],
    ['Я вижу ёлку.', 'ёлку', 'ru', 'Я вижу ', 'ёлку', '.'],
  ])('%j holds %j (%s)', (example, word, language, before, answer, after) => {
    expect(gapSentence(example, word, language)).toEqual({ before, answer, after })
  })

  it.each([
    ['The category is new.', 'cat', 'en'],
    ['I go home at six o’clock.', 'clock', 'en'],
    ["I don't know.", 'don', 'en'],
    ['We are friends.', 'friend', 'en'],
    ["My friend's car.", 'friend', 'en'],
    ["L'homme est grand.", 'homme', 'en'],
    ['Thank  you for your help.', 'thank you', 'en'],
    ['Собаками не пугают.', 'собака', 'ru'],
    ['Кошка спит.', 'собака', 'ru'],
    ['Anything at all.', '   ', 'en'],
    ['', 'house', 'en'],
  ])('%j does not hold %j as a word (%s)', (example, word, language) => {
    expect(gapSentence(example, word, language)).toBeNull()
  })
})

describe('the choices', () => {
  interface Item {
    text: string
    partOfSpeech: string | null
  }
  const noun = (text: string): Item => ({ text, partOfSpeech: 'noun' })
  const verb = (text: string): Item => ({ text, partOfSpeech: 'verb' })
  /** A seeded random (mulberry32), so that a run is repeatable. */
  const seeded = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const options = (seed: number) => ({ key: (item: Item) => item.text, partOfSpeech: (item: Item) => item.partOfSpeech, random: seeded(seed) })
  const texts = (items: Item[]) => items.map((item) => item.text)

  const answer = noun('house')
  const pool = [verb('run'), noun('door'), verb('eat'), noun('table'), verb('sleep'), noun('window'), noun('garden'), verb('go')]

  it('holds the answer exactly once among four, the others of its part of speech', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const choices = pickChoices(answer, pool, options(seed))
      expect(choices).toHaveLength(4)
      expect(choices.filter((choice) => choice === answer)).toHaveLength(1)
      expect(choices.every((choice) => choice.partOfSpeech === 'noun')).toBe(true)
      expect(new Set(texts(choices)).size).toBe(4)
    }
  })

  it('fills from other parts of speech when fewer than three share the answer’s, taking those that do first', () => {
    const few = [verb('run'), noun('door'), verb('eat'), noun('table'), verb('sleep')]
    for (let seed = 1; seed <= 20; seed++) {
      const choices = pickChoices(answer, few, options(seed))
      expect(choices).toHaveLength(4)
      expect(texts(choices)).toEqual(expect.arrayContaining(['house', 'door', 'table']))
      expect(choices.filter((choice) => choice.partOfSpeech === 'verb')).toHaveLength(1)
    }
  })

  it('never offers the answer twice, nor one choice twice, whatever the case, spaces or Unicode form', () => {
    const copies = [noun('House'), noun(' house '), noun('CAFÉ'), noun(nfd('café')), noun('Café'), noun('door'), noun('DOOR')]
    for (let seed = 1; seed <= 20; seed++) {
      const choices = pickChoices(answer, copies, options(seed))
      const keys = texts(choices).map((text) => text.normalize('NFC').trim().toLowerCase())
      expect(keys.sort()).toEqual(['café', 'door', 'house'])
      expect(choices.filter((choice) => choice === answer)).toHaveLength(1)
    }
  })

  it('gives fewer than four when the candidates hold too few distinct ones', () => {
    expect(pickChoices(answer, [], options(1))).toEqual([answer])
    expect(texts(pickChoices(answer, [noun('HOUSE'), verb('run')], options(1))).sort()).toEqual(['house', 'run'])
  })

  it('gives the same choices in the same order for the same random, and shuffles the answer’s place', () => {
    expect(pickChoices(answer, pool, options(7))).toEqual(pickChoices(answer, pool, options(7)))
    const places = new Set(Array.from({ length: 40 }, (_, seed) => pickChoices(answer, pool, options(seed)).indexOf(answer)))
    expect([...places].sort()).toEqual([0, 1, 2, 3])
  })

  it('works without parts of speech, on plain strings, and with another count', () => {
    const choices = pickChoices('one', ['two', 'three', 'four', 'five', 'six', 'One'], { key: (text) => text, random: seeded(3), count: 3 })
    expect(choices).toHaveLength(3)
    expect(choices.filter((choice) => choice === 'one')).toHaveLength(1)
    expect(choices).not.toContain('One')
  })
})
