import { z } from 'zod/mini'
import { levelInputSchema } from '@/shared/levels-schemas'

/** The level form's values; `version` is the one the form was filled from (edit only, not a field). */
export interface LevelValues {
  code: string
  name: string
  description: string
  version?: number
}

/** The level form's schemas, loaded when it is first validated (lib/form-resolver.ts). */
export const createSchema = levelInputSchema as unknown as z.core.$ZodType<LevelValues, LevelValues>
export const editSchema = z.extend(levelInputSchema, { version: z.number() }) as unknown as z.core.$ZodType<
  LevelValues,
  LevelValues
>
