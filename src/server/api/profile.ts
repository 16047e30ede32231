import { eq, inArray, sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { z } from 'zod/mini'
import type { FieldErrors } from '@/shared/errors'
import type { LearnerProfile, LearnerProfileInput } from '@/shared/profile'
import { learnerProfileInputSchema } from '@/shared/profile-schemas'
import { publishEvent } from '@/server/events/bus'
import type { Db } from '@/server/db/client'
import { FOREIGN_KEY_VIOLATION, violatedConstraint } from '@/server/db/errors'
import { languageLevel, learnerProfile } from '@/server/db/schema'
import { jsonBody } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { ApiError } from '@/server/http/errors'
import { requireUser, signedInUser } from '@/server/auth/session'
import { describe, json } from '@/server/openapi/describe'
import { answer, isoDateTime } from '@/server/openapi/schemas'

const emptyProfile: LearnerProfile = {
  language: null,
  currentLevelId: null,
  targetLevelId: null,
  updatedAt: null,
}

const learnerProfileSchema = answer<LearnerProfile>(
  'LearnerProfile',
  "The learner's language and levels; all null until first saved.",
)(z.extend(learnerProfileInputSchema, { updatedAt: z.nullable(isoDateTime) }))

const describeGet = describe({
  operationId: 'getProfile',
  summary: "The signed-in learner's profile",
  tags: ['Account'],
  access: 'user',
  responses: { 200: json(learnerProfileSchema, 'The profile (nulls until it is first saved).') },
  errors: [503],
})

const describePut = describe({
  operationId: 'putProfile',
  summary: "Save the signed-in learner's profile",
  description:
    'Levels must exist (400 on their field otherwise) and the target may not be below the current level.',
  tags: ['Account'],
  access: 'user',
  responses: { 200: json(learnerProfileSchema, 'The saved profile.') },
  errors: [503],
})

/** `/api/me/profile`: the signed-in learner's language and levels (behind `readSession`). */
export function profileRoutes(db: Db) {
  return new Hono<AppEnv>()
    .get('/', describeGet, requireUser, async (c) => {
      const profile = await readProfile(db, signedInUser(c).id)
      return c.json(profile)
    })
    .put('/', describePut, requireUser, jsonBody(learnerProfileInputSchema), async (c) => {
      const profile = await saveProfile(db, signedInUser(c).id, c.req.valid('json'))
      return c.json(profile)
    })
}

async function readProfile(db: Db, userId: string): Promise<LearnerProfile> {
  const [row] = await db.select().from(learnerProfile).where(eq(learnerProfile.userId, userId))
  return row ? toLearnerProfile(row) : emptyProfile
}

async function saveProfile(
  db: Db,
  userId: string,
  input: LearnerProfileInput,
): Promise<LearnerProfile> {
  await checkLevels(db, input)
  const values = { ...input, updatedAt: sql`now()` }
  let row
  try {
    ;[row] = await db
      .insert(learnerProfile)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: learnerProfile.userId, set: values })
      .returning()
  } catch (error) {
    throw refusalOfForeignKey(error) ?? error
  }
  // Their other open screens (the dashboard in another tab) read it again.
  await publishEvent(db, { type: 'account', userId, data: { reason: 'profile' } })
  return toLearnerProfile(row as typeof learnerProfile.$inferSelect)
}

const unknownLevel = 'This language level does not exist.'

/**
 * Refuses a level that does not exist and a target below the current level. Without locks: the
 * order may change after the save anyway (an administrator reorders), and a level deleted between
 * this check and the save is caught by its foreign key (`refusalOfForeignKey`).
 */
async function checkLevels(db: Db, input: LearnerProfileInput): Promise<void> {
  const ids = [input.currentLevelId, input.targetLevelId].filter((id) => id !== null)
  if (ids.length === 0) return
  const levels = await db
    .select({ id: languageLevel.id, position: languageLevel.position })
    .from(languageLevel)
    .where(inArray(languageLevel.id, ids))
  const positionOf = new Map(levels.map((level) => [level.id, level.position]))

  const fields: FieldErrors = {}
  for (const field of ['currentLevelId', 'targetLevelId'] as const) {
    const id = input[field]
    if (id !== null && !positionOf.has(id)) fields[field] = [unknownLevel]
  }
  const current = positionOf.get(input.currentLevelId ?? 0)
  const target = positionOf.get(input.targetLevelId ?? 0)
  if (current !== undefined && target !== undefined && target < current) {
    fields.targetLevelId = ['The target level cannot be below the current level.']
  }
  if (Object.keys(fields).length > 0) {
    throw new ApiError('validation_failed', 'The request is not valid.', fields)
  }
}

/** The answer to a foreign key the save violated: a level deleted meanwhile, or the account. */
function refusalOfForeignKey(error: unknown): ApiError | undefined {
  switch (violatedConstraint(error, FOREIGN_KEY_VIOLATION)) {
    case 'learner_profile_current_level_id_language_level_id_fk':
      return new ApiError('validation_failed', 'The request is not valid.', { currentLevelId: [unknownLevel] })
    case 'learner_profile_target_level_id_language_level_id_fk':
      return new ApiError('validation_failed', 'The request is not valid.', { targetLevelId: [unknownLevel] })
    case 'learner_profile_user_id_user_id_fk':
      // Deleted, while its session's cached copy still lives (up to 60 s).
      return new ApiError('unauthenticated', 'Sign in first.')
    default:
      return undefined
  }
}

function toLearnerProfile(row: typeof learnerProfile.$inferSelect): LearnerProfile {
  return {
    // Only the API writes it, from LEARNABLE_LANGUAGES.
    language: row.language as LearnerProfile['language'],
    currentLevelId: row.currentLevelId,
    targetLevelId: row.targetLevelId,
    updatedAt: row.updatedAt.toISOString(),
  }
}
