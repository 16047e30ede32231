import { and, eq } from 'drizzle-orm'
import type { FSRSParameters } from 'ts-fsrs'
import { DAILY_GOAL_DEFAULT, NEW_WORDS_PER_DAY_DEFAULT, TIME_ZONE_DEFAULT, type PracticeSettings } from '@/shared/practice'
import { bridgedByZoneChange, canonicalTimeZone, dayIn } from '@/shared/practice-days'
import type { PracticeSettingsInput } from '@/shared/practice-schemas'
import type { Db } from '@/server/db/client'
import { practiceSettings, reviewLog } from '@/server/db/schema'
import { publishEvent } from '@/server/events/bus'
import { defaultFsrsParameters } from './scheduler'

/**
 * A learner's practice settings: new words a day, the daily goal, the time zone of their day, the
 * FSRS parameters, and the dates time-zone changes bridged. Defaults until the first grade or save
 * (a read writes nothing). The rules are docs/decisions/0019-practice.md.
 */

export interface Settings {
  newWordsPerDay: number
  dailyGoal: number
  timeZone: string
  fsrsParameters: FSRSParameters
  bridgedDays: string[]
}

const defaults = (): Settings => ({
  newWordsPerDay: NEW_WORDS_PER_DAY_DEFAULT,
  dailyGoal: DAILY_GOAL_DEFAULT,
  timeZone: TIME_ZONE_DEFAULT,
  fsrsParameters: defaultFsrsParameters(),
  bridgedDays: [],
})

/** The person's settings, or the defaults while they have none (a read writes nothing). */
export async function readSettings(db: Db, userId: string): Promise<Settings> {
  const [row] = await db.select().from(practiceSettings).where(eq(practiceSettings.userId, userId))
  if (!row) return defaults()
  // Written only by this module, from ts-fsrs's own parameters.
  return { ...row, fsrsParameters: row.fsrsParameters as FSRSParameters }
}

const publicSettings = ({ newWordsPerDay, dailyGoal, timeZone }: Settings): PracticeSettings => ({ newWordsPerDay, dailyGoal, timeZone })

/** The settings row, made with the defaults if missing, locked until the transaction ends. */
export async function lockedSettings(tx: Db, userId: string): Promise<Settings> {
  const locked = () => tx.select().from(practiceSettings).where(eq(practiceSettings.userId, userId)).for('update')
  let [row] = await locked()
  if (!row) {
    await tx
      .insert(practiceSettings)
      .values({ userId, ...defaults() })
      .onConflictDoNothing()
    ;[row] = await locked()
  }
  return { ...(row as typeof practiceSettings.$inferSelect), fsrsParameters: row?.fsrsParameters as FSRSParameters }
}

export async function readPracticeSettings(db: Db, userId: string): Promise<PracticeSettings> {
  return publicSettings(await readSettings(db, userId))
}

/**
 * Saves the settings, the time zone by its canonical name (validated, so it has one); a new zone
 * may bridge the dates it leaves behind (practice-days.ts). A new goal is today's at once: it is
 * written onto today's reviews, so that today is judged by it when it has ended too.
 */
export async function savePracticeSettings(db: Db, userId: string, input: PracticeSettingsInput, now: Date): Promise<PracticeSettings> {
  const timeZone = canonicalTimeZone(input.timeZone) ?? input.timeZone
  return db.transaction(async (tx) => {
    const settings = await lockedSettings(tx, userId)
    const bridged = settings.timeZone === timeZone ? [] : bridgedByZoneChange(settings.timeZone, timeZone, now, settings.bridgedDays)
    const [row] = await tx
      .update(practiceSettings)
      .set({ ...input, timeZone, bridgedDays: [...settings.bridgedDays, ...bridged], updatedAt: now })
      .where(eq(practiceSettings.userId, userId))
      .returning()
    if (input.dailyGoal !== settings.dailyGoal) {
      await tx
        .update(reviewLog)
        .set({ goal: input.dailyGoal })
        .where(and(eq(reviewLog.userId, userId), eq(reviewLog.day, dayIn(timeZone, now))))
    }
    await publishEvent(tx, { type: 'practice', userId, data: { reason: 'settings' } })
    return publicSettings({ ...(row as typeof practiceSettings.$inferSelect), fsrsParameters: settings.fsrsParameters })
  })
}
