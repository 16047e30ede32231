import { z } from 'zod/mini'

/** The profile form's values: select values are strings; '' is "not chosen". */
export interface ProfileFormValues {
  language: string
  currentLevelId: string
  targetLevelId: string
}

/**
 * The profile form's schema (loaded when it is first validated, lib/form-resolver.ts): the target
 * may not be below the current level, as the levels' `position` orders them (the server checks too).
 */
export function profileFormSchema(position: Map<string, number>): z.core.$ZodType<ProfileFormValues, ProfileFormValues> {
  return z
    .object({ language: z.string(), currentLevelId: z.string(), targetLevelId: z.string() })
    .check(
      z.refine(
        ({ currentLevelId, targetLevelId }) =>
          !currentLevelId ||
          !targetLevelId ||
          (position.get(targetLevelId) ?? 0) >= (position.get(currentLevelId) ?? 0),
        { path: ['targetLevelId'], params: { targetBelowCurrent: true } },
      ),
    )
}
