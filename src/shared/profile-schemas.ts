import { z } from 'zod/mini'
import { LEARNABLE_LANGUAGES } from './profile'
import { rowNumber } from './query'

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
