import { createHmac, timingSafeEqual } from 'node:crypto'
import { USER_ID_PATTERN } from '@/shared/people'

/**
 * The token of a reminder's "Stop these reminders" link and `List-Unsubscribe` address: the
 * learner's id and a MAC of it and its purpose under the server's secret (AUTH_SECRET, or the one
 * kept in the database), so that it turns off that learner's reminders and nothing else, without
 * signing in. It does not expire: all it can do is stop emails, which the learner may turn on again.
 */
const PURPOSE = 'practice-reminder-unsubscribe'

export interface ReminderTokens {
  sign(userId: string): string
  /** The learner the token was made for, or undefined for anything not made by `sign`. */
  verify(token: string | undefined): string | undefined
}

export function reminderTokens(secret: string): ReminderTokens {
  const mac = (userId: string) => createHmac('sha256', secret).update(`${PURPOSE}:${userId}`).digest()
  return {
    sign: (userId) => `${userId}.${mac(userId).toString('base64url')}`,
    verify(token) {
      const [userId = '', tag = '', ...rest] = (token ?? '').split('.')
      if (rest.length > 0 || !USER_ID_PATTERN.test(userId)) return undefined
      const given = Buffer.from(tag, 'base64url')
      const expected = mac(userId)
      // Constant time: the comparison says nothing of how much of the tag was right.
      return given.length === expected.length && timingSafeEqual(given, expected) ? userId : undefined
    },
  }
}
