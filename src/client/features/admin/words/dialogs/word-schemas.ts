import { z } from 'zod/mini'
import { type PartOfSpeech, partsOfSpeech } from '@/shared/words'
import { wordInputSchema } from '@/shared/words-schemas'

/**
 * The word form's values: the selects and fields hold text ('' for no part of speech, no
 * example); `version` is the one the form was filled from (edit only, not a field).
 */
export interface WordFormValues {
  language: string
  text: string
  translationEn: string
  translationRu: string
  example: string
  partOfSpeech: string
  version?: number
}

/** The shared input schema, with "no part of speech" as the select's empty choice (loaded on first validation). */
export const wordFormSchema = z.extend(wordInputSchema, {
  partOfSpeech: z.pipe(
    z.union([z.literal(''), z.enum(partsOfSpeech)]),
    z.transform((value: PartOfSpeech | '') => value || null),
  ),
  version: z.optional(z.number()),
}) as unknown as z.core.$ZodType<WordFormValues, WordFormValues>
