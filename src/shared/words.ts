import type { CsvRefusal } from './csv'

/**
 * Words (or short phrases) to practise, each of one level: bounds, the CSV format and the API's
 * answer types. No zod here, so that the client's first page can use them (`words-schemas.ts` has
 * the schemas).
 */

export const WORD_TEXT_MAX = 100
export const WORD_TRANSLATION_MAX = 200
export const WORD_EXAMPLE_MAX = 300
export const WORD_QUERY_MAX = 100
export const WORD_PAGE_SIZE_DEFAULT = 50
export const WORD_PAGE_SIZE_MAX = 200

/** Parts of speech a word may name (optional). */
export const partsOfSpeech = [
  'noun',
  'verb',
  'adjective',
  'adverb',
  'pronoun',
  'preposition',
  'conjunction',
  'determiner',
  'numeral',
  'interjection',
  'phrase',
] as const
export type PartOfSpeech = (typeof partsOfSpeech)[number]

/** The columns of a words file, in this order, as its header row names them. */
export const WORD_CSV_COLUMNS = ['language', 'text', 'translation_en', 'translation_ru', 'example', 'part_of_speech'] as const
/** Rows a file may hold; its size is bounded by WORD_CSV_MAX_BYTES too. */
export const WORD_CSV_MAX_ROWS = 20_000
export const WORD_CSV_MAX_BYTES = 4 * 1024 * 1024

/** A word as the API answers it (dates as ISO strings). */
export interface Word {
  id: number
  levelId: number
  /** ISO 639-1 code of the language the word teaches. */
  language: string
  text: string
  translationEn: string
  translationRu: string
  example: string | null
  partOfSpeech: PartOfSpeech | null
  version: number
  createdAt: string
  updatedAt: string
}

export interface WordPage {
  items: Word[]
  total: number
  page: number
  pageSize: number
}

/**
 * What an import did, or would do (`dryRun`): a row names a word by language, text and part of
 * speech; one this level has already is updated, a new one created.
 */
export interface WordImportResult {
  dryRun: boolean
  rows: number
  created: number
  updated: number
  unchanged: number
  /** Every refused row; when there is one, nothing is written. */
  refused: CsvRefusal[]
}
