import { z } from 'zod/mini'
import { practiceSettingsInputSchema } from '@/shared/practice-schemas'

/** The "Practice" form's values: the numbers; the time zone is the browser's, not typed. */
export interface PracticeFormValues {
  newWordsPerDay: number
  dailyGoal: number
}

/** The shared settings schema's numbers (loaded when the form is first validated, lib/form-resolver.ts). */
export const practiceFormSchema: z.core.$ZodType<PracticeFormValues, PracticeFormValues> = z.pick(
  practiceSettingsInputSchema,
  { newWordsPerDay: true, dailyGoal: true },
)
