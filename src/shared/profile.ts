import type { z } from 'zod/mini'
import type { learnerProfileInputSchema } from './profile-schemas'

/**
 * The learner's profile without a validation library, which the dashboard imports with its page;
 * the schema is in profile-schemas.ts (as auth.ts and auth-schemas.ts).
 *
 * The languages a learner can choose (ISO 639-1); the select lists them by their names in the
 * interface language (`Intl.DisplayNames`), in its alphabetical order.
 */
export const LEARNABLE_LANGUAGES = [
  'en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'sv', 'no', 'da', 'fi', 'pl', 'cs', 'uk', 'ru', 'el',
  'tr', 'ar', 'he', 'hi', 'zh', 'ja', 'ko', 'vi', 'id',
] as const

export type LearnerProfileInput = z.infer<typeof learnerProfileInputSchema>

export interface LearnerProfile extends LearnerProfileInput {
  /** Null until the profile is first saved. */
  updatedAt: string | null
}
