import { z } from 'zod/mini'
import { LEARNABLE_LANGUAGES } from './profile'
import { positiveIntParam, rowNumber } from './query'
import { optionalText, trimmedText } from './schema-helpers'
import {
  WORD_EXAMPLE_MAX,
  WORD_PAGE_SIZE_DEFAULT,
  WORD_PAGE_SIZE_MAX,
  WORD_QUERY_MAX,
  WORD_TEXT_MAX,
  WORD_TRANSLATION_MAX,
  partsOfSpeech,
} from './words'

const required = (max: number) => trimmedText(1, max)

const wordFields = {
  language: z.enum(LEARNABLE_LANGUAGES),
  text: required(WORD_TEXT_MAX),
  translationEn: required(WORD_TRANSLATION_MAX),
  translationRu: required(WORD_TRANSLATION_MAX),
  example: z._default(optionalText(WORD_EXAMPLE_MAX), null),
  partOfSpeech: z._default(z.nullable(z.enum(partsOfSpeech)), null),
}

/** What an administrator sends to add a word to a level (also the word form's values). */
export const wordInputSchema = z.object(wordFields)

/** A change of some fields, with the `version` read: 409 when the word changed since. */
export const wordPatchSchema = z.object({
  language: z.optional(wordFields.language),
  text: z.optional(wordFields.text),
  translationEn: z.optional(wordFields.translationEn),
  translationRu: z.optional(wordFields.translationRu),
  example: z.optional(optionalText(WORD_EXAMPLE_MAX)),
  partOfSpeech: z.optional(z.nullable(z.enum(partsOfSpeech))),
  version: rowNumber(),
})

/** `GET /api/language-levels/{id}/words`: search (text and translations) and page. */
export const wordListQuerySchema = z.object({
  q: z.optional(z.string().check(z.trim(), z.maxLength(WORD_QUERY_MAX))),
  page: z._default(positiveIntParam(100_000), 1),
  pageSize: z._default(positiveIntParam(WORD_PAGE_SIZE_MAX), WORD_PAGE_SIZE_DEFAULT),
})
export type WordListQuery = z.output<typeof wordListQuerySchema>
