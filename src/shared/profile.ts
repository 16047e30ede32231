import { z } from 'zod/mini'
import { rowNumber } from './query'

/**
 * The languages a learner can choose (ISO 639-1), in this order in the select; their names come
 * from `Intl.DisplayNames` in the interface language.
 */
export const LEARNABLE_LANGUAGES = [
  'en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'sv', 'no', 'da', 'fi', 'pl', 'cs', 'uk', 'ru', 'el',
  'tr', 'ar', 'he', 'hi', 'zh', 'ja', 'ko', 'vi', 'id',
] as const

const levelId = z.nullable(rowNumber())

/**
 * `PUT /api/me/profile`. Every field may be empty (null). The target level may not be below the
 * current one (the server compares the levels' positions).
 */
export const learnerProfileInputSchema = z.object({
  language: z.nullable(z.enum(LEARNABLE_LANGUAGES)),
  currentLevelId: levelId,
  targetLevelId: levelId,
})
export type LearnerProfileInput = z.infer<typeof learnerProfileInputSchema>

export interface LearnerProfile extends LearnerProfileInput {
  /** Null until the profile is first saved. */
  updatedAt: string | null
}
