import { z } from 'zod/mini'
import type { Skill } from '@/shared/can-do'
import { statementInputSchema } from '@/shared/can-do-schemas'

/** The statement form's values; `version` is the one an edit was filled from (not a field). */
export interface StatementValues {
  levelId: number
  skill: Skill
  text: { en: string; ru: string }
  version?: number
}

/** The statement form's schemas, loaded when it is first validated (lib/form-resolver.ts). */
export const createSchema = statementInputSchema as unknown as z.core.$ZodType<StatementValues, StatementValues>
export const editSchema = z.extend(statementInputSchema, { version: z.number() }) as unknown as z.core.$ZodType<
  StatementValues,
  StatementValues
>
