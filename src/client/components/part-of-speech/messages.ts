import { i18n } from '@/client/lib/i18n'

/** Parts of speech, as the word forms and tables name them (the admin's words, a learner's decks). */
export const partOfSpeechMessages = i18n('partsOfSpeech', {
  none: 'Not given',
  noun: 'Noun',
  verb: 'Verb',
  adjective: 'Adjective',
  adverb: 'Adverb',
  pronoun: 'Pronoun',
  preposition: 'Preposition',
  conjunction: 'Conjunction',
  determiner: 'Determiner',
  numeral: 'Numeral',
  interjection: 'Interjection',
  phrase: 'Phrase',
})
