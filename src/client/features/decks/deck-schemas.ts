import { z } from 'zod/mini'
import { DECK_TAGS_MAX, DECK_TAG_MAX } from '@/shared/decks'
import { deckInputSchema, deckWordInputSchema } from '@/shared/decks-schemas'
import { type PartOfSpeech, partsOfSpeech } from '@/shared/words'
import { deckWordFormMessages } from './messages'
import { tagsOf } from './tags'

/**
 * The deck pages' form schemas, from the shared input schemas, loaded when a form is first
 * validated (lib/form-resolver.ts). The values are the fields' text; what is sent is made from them
 * by the dialogs.
 */

/** The deck form's values; `version` is the one the form was filled from (edit only, not a field). */
export interface DeckFormValues {
  name: string
  language: string
  description: string
  practiseDaily: boolean
  version?: number
}

export const deckFormSchema = z.extend(deckInputSchema, { version: z.optional(z.number()) }) as unknown as z.core.$ZodType<
  DeckFormValues,
  DeckFormValues
>

/** The word form's values: tags as typed (separated by spaces), '' for no part of speech. */
export interface DeckWordFormValues {
  text: string
  translationEn: string
  translationRu: string
  example: string
  partOfSpeech: string
  notes: string
  tags: string
  reversed: boolean
}

export const deckWordFormSchema = z
  .extend(deckWordInputSchema, {
    partOfSpeech: z.pipe(
      z.union([z.literal(''), z.enum(partsOfSpeech)]),
      z.transform((value: PartOfSpeech | '') => value || null),
    ),
    tags: z.pipe(
      z.string().check(
        z.refine((typed) => {
          const tags = tagsOf(typed)
          return tags.length <= DECK_TAGS_MAX && tags.every((tag) => tag.length <= DECK_TAG_MAX)
        }, { error: () => deckWordFormMessages.get().tagsInvalid }),
      ),
      z.transform(tagsOf),
    ),
  })
  .check(
    // One translation is enough: the server gives the other the same.
    z.refine((word) => Boolean(word.translationEn ?? word.translationRu), {
      error: () => deckWordFormMessages.get().translationMissing,
      path: ['translationEn'],
    }),
  ) as unknown as z.core.$ZodType<DeckWordFormValues, DeckWordFormValues>
