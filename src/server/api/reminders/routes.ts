import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { z } from 'zod/mini'
import type { ReminderState } from '@/shared/reminders'
import type { Db } from '@/server/db/client'
import { practiceSettings } from '@/server/db/schema'
import { publishEvent } from '@/server/events/bus'
import { queryParams, readBody } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { ApiError } from '@/server/http/errors'
import { describeReminderState, describeUnsubscribe } from './docs'
import type { ReminderTokens } from './token'

/** The one-click body is one short field: anything longer is no mail client's. */
const MAX_FORM_BYTES = 4096

const tokenQuery = z.object({ token: z.string().check(z.maxLength(200)) })

const invalidToken = () =>
  new ApiError('invalid_token', 'This link to stop the reminders is not valid. Turn them off on your account page, under “Practice”.')

/**
 * `/api/reminders/unsubscribe?token=…` (docs/decisions/0035-reminders.md): GET says whether the
 * token's reminders are on and changes nothing; POST turns them off. No session: the token, signed
 * by the server for one learner, is the authority.
 */
export function reminderRoutes(db: Db, tokens: ReminderTokens) {
  const learnerOf = (token: string): string => {
    const userId = tokens.verify(token)
    if (!userId) throw invalidToken()
    return userId
  }
  return new Hono<AppEnv>()
    .get('/unsubscribe', describeReminderState, queryParams(tokenQuery), async (c) => {
      const userId = learnerOf(c.req.valid('query').token)
      const [row] = await db.select({ on: practiceSettings.reminderEnabled }).from(practiceSettings).where(eq(practiceSettings.userId, userId))
      return c.json<ReminderState>({ reminderEnabled: row?.on ?? false })
    })
    .post('/unsubscribe', describeUnsubscribe, queryParams(tokenQuery), async (c) => {
      const userId = learnerOf(c.req.valid('query').token)
      // What a mail client posts (form or multipart, which the body guard lets through here) is read
      // within its limit and not needed: the token says it all.
      if (!/json/i.test(c.req.header('content-type') ?? '')) await readBody(c.req.raw, MAX_FORM_BYTES)
      await db.transaction(async (tx) => {
        const off = await tx
          .update(practiceSettings)
          .set({ reminderEnabled: false, updatedAt: new Date() })
          .where(eq(practiceSettings.userId, userId))
          .returning({ userId: practiceSettings.userId })
        // The learner's open pages read their settings again.
        if (off.length > 0) await publishEvent(tx, { type: 'practice', userId, data: { reason: 'settings' } })
      })
      return c.json<ReminderState>({ reminderEnabled: false })
    })
}
