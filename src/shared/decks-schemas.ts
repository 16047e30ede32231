import { z } from 'zod/mini'
import {
  DECK_DESCRIPTION_MAX,
  DECK_NAME_MAX,
  DECK_NOTES_MAX,
  DECK_TAGS_MAX,
  DECK_TAG_MAX,
  DECK_WORD_PAGE_SIZE_DEFAULT,
  DECK_WORD_PAGE_SIZE_MAX,
  deckWordSorts,
} from './decks'
import { LEARNABLE_LANGUAGES } from './profile'
import { positiveIntParam, rowNumber } from './query'
import { optionalText, trimmedText } from './schema-helpers'
import { WORD_EXAMPLE_MAX, WORD_QUERY_MAX, WORD_TEXT_MAX, WORD_TRANSLATION_MAX, partsOfSpeech } from './words'

const deckFields = {
  name: trimmedText(1, DECK_NAME_MAX),
  language: z.enum(LEARNABLE_LANGUAGES),
  description: z._default(optionalText(DECK_DESCRIPTION_MAX), null),
  practiseDaily: z._default(z.boolean(), true),
}

/** `POST /api/me/decks`. */
export const deckInputSchema = z.object(deckFields)

/** `PATCH /api/me/decks/{id}`: some fields, with the `version` read (409 when stale). */
export const deckPatchSchema = z.object({
  name: z.optional(deckFields.name),
  language: z.optional(deckFields.language),
  description: z.optional(optionalText(DECK_DESCRIPTION_MAX)),
  practiseDaily: z.optional(z.boolean()),
  version: rowNumber(),
})

const tags = z.array(trimmedText(1, DECK_TAG_MAX).check(z.regex(/^\S+$/, 'A tag has no spaces'))).check(z.maxLength(DECK_TAGS_MAX))

/**
 * `POST /api/me/decks/{id}/words`: a word and its translations (one is enough: the other takes
 * it), and whether it is also asked the other way round.
 */
export const deckWordInputSchema = z.object({
  text: trimmedText(1, WORD_TEXT_MAX),
  translationEn: z._default(optionalText(WORD_TRANSLATION_MAX), null),
  translationRu: z._default(optionalText(WORD_TRANSLATION_MAX), null),
  example: z._default(optionalText(WORD_EXAMPLE_MAX), null),
  partOfSpeech: z._default(z.nullable(z.enum(partsOfSpeech)), null),
  notes: z._default(optionalText(DECK_NOTES_MAX), null),
  tags: z._default(tags, []),
  reversed: z._default(z.boolean(), false),
})
export type DeckWordInput = z.output<typeof deckWordInputSchema>

/** `GET /api/me/decks/{id}/words`: search (text, translations, notes), sort and page. */
export const deckWordListQuerySchema = z.object({
  q: z.optional(z.string().check(z.trim(), z.maxLength(WORD_QUERY_MAX))),
  sort: z._default(z.enum(deckWordSorts), 'created'),
  dir: z._default(z.enum(['asc', 'desc']), 'asc'),
  page: z._default(positiveIntParam(100_000), 1),
  pageSize: z._default(positiveIntParam(DECK_WORD_PAGE_SIZE_MAX), DECK_WORD_PAGE_SIZE_DEFAULT),
})
export type DeckWordListQuery = z.output<typeof deckWordListQuerySchema>
