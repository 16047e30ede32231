import { z } from 'zod/mini'
import { type PracticeWay, practiceWays } from '@/shared/practice'
import { practiceSettingsInputSchema } from '@/shared/practice-schemas'

/**
 * The "Practice" form's values: the numbers, the ways to practise that are on (the checkboxes'
 * values), the daily reminder and its hour; the time zone is the browser's, not typed.
 */
export interface PracticeFormValues {
  newWordsPerDay: number
  dailyGoal: number
  ways: PracticeWay[]
  reminderEnabled: boolean
  reminderHour: number
}

/**
 * The shared settings schema's fields (loaded when the form is first validated, lib/form-resolver.ts).
 * No way on is refused here with the form's own words (practice-section.tsx), in the interface language.
 */
export const practiceFormSchema: z.core.$ZodType<PracticeFormValues, PracticeFormValues> = z.extend(
  z.pick(practiceSettingsInputSchema, { newWordsPerDay: true, dailyGoal: true }),
  {
    ways: z.array(z.enum(practiceWays)).check(z.minLength(1)),
    reminderEnabled: z.boolean(),
    reminderHour: z.number().check(z.int(), z.minimum(0), z.maximum(23)),
  },
)
