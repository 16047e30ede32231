import { and, eq } from 'drizzle-orm'
import type { FSRSParameters } from 'ts-fsrs'
import {
  DAILY_GOAL_DEFAULT,
  DESIRED_RETENTION_DEFAULT,
  NEW_WORDS_PER_DAY_DEFAULT,
  REMINDER_HOUR_DEFAULT,
  TIME_ZONE_DEFAULT,
  type PracticeSettings,
  practiceWays,
} from '@/shared/practice'
import { bridgedByZoneChange, canonicalTimeZone, dayIn } from '@/shared/practice-days'
import type { PracticeSettingsInput } from '@/shared/practice-schemas'
import type { Db } from '@/server/db/client'
import { practiceSettings, reviewLog } from '@/server/db/schema'
import { publishEvent } from '@/server/events/bus'
import { defaultFsrsParameters } from './scheduler'

/**
 * A learner's practice settings: new words a day, the daily goal, the time zone of their day, the
 * ways to practise, the daily reminder, the desired retention, the FSRS parameters (the defaults
 * or their own memory model's), and the dates time-zone changes bridged. Defaults until the first
 * grade or save (a read writes nothing). The rules are docs/decisions/0019-practice.md.
 */

type SettingsRow = typeof practiceSettings.$inferSelect

export interface Settings extends PracticeSettings {
  /** The parameters scheduled with: their `request_retention` is the desired retention. */
  fsrsParameters: FSRSParameters
  bridgedDays: string[]
  memoryModel: SettingsRow['memoryModel']
}

const defaults = (): Settings => ({
  newWordsPerDay: NEW_WORDS_PER_DAY_DEFAULT,
  dailyGoal: DAILY_GOAL_DEFAULT,
  timeZone: TIME_ZONE_DEFAULT,
  ways: [...practiceWays],
  reminderEnabled: false,
  reminderHour: REMINDER_HOUR_DEFAULT,
  desiredRetention: DESIRED_RETENTION_DEFAULT,
  fsrsParameters: defaultFsrsParameters(),
  bridgedDays: [],
  memoryModel: null,
})

/** A stored row as settings: written only by this module (the parameters from ts-fsrs's own). */
const fromRow = (row: SettingsRow): Settings => ({
  ...row,
  ways: practiceWays.filter((way) => row.ways.includes(way)),
  fsrsParameters: { ...(row.fsrsParameters as FSRSParameters), request_retention: row.desiredRetention },
})

/** The settings of a row read, or the defaults when there is none. */
export const settingsOf = (row: SettingsRow | null | undefined): Settings => (row ? fromRow(row) : defaults())

/** The person's settings, or the defaults while they have none (a read writes nothing). */
export async function readSettings(db: Db, userId: string): Promise<Settings> {
  const [row] = await db.select().from(practiceSettings).where(eq(practiceSettings.userId, userId))
  return settingsOf(row)
}

const publicSettings = ({ newWordsPerDay, dailyGoal, timeZone, ways, reminderEnabled, reminderHour, desiredRetention }: Settings): PracticeSettings => ({
  newWordsPerDay,
  dailyGoal,
  timeZone,
  ways,
  reminderEnabled,
  reminderHour,
  desiredRetention,
})

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
  return fromRow(row as SettingsRow)
}

export async function readPracticeSettings(db: Db, userId: string): Promise<PracticeSettings> {
  return publicSettings(await readSettings(db, userId))
}

/**
 * Saves the settings, the time zone by its canonical name (validated, so it has one); a new zone
 * may bridge the dates it leaves behind (practice-days.ts). A new goal is today's at once: it is
 * written onto today's reviews, so that today is judged by it when it has ended too. `mailLocale`,
 * the interface language of the request, is the language of the daily reminder; a reminder turned
 * on, or moved to another hour, is stamped with `now` (docs/decisions/0035-reminders.md).
 */
export async function savePracticeSettings(
  db: Db,
  userId: string,
  input: PracticeSettingsInput,
  now: Date,
  mailLocale?: string,
): Promise<PracticeSettings> {
  const timeZone = canonicalTimeZone(input.timeZone) ?? input.timeZone
  return db.transaction(async (tx) => {
    const settings = await lockedSettings(tx, userId)
    const bridged = settings.timeZone === timeZone ? [] : bridgedByZoneChange(settings.timeZone, timeZone, now, settings.bridgedDays)
    const reminderSet =
      (input.reminderEnabled ?? settings.reminderEnabled) &&
      (!settings.reminderEnabled || (input.reminderHour ?? settings.reminderHour) !== settings.reminderHour)
    const [row] = await tx
      .update(practiceSettings)
      .set({
        ...input,
        timeZone,
        bridgedDays: [...settings.bridgedDays, ...bridged],
        updatedAt: now,
        ...(reminderSet ? { reminderSetAt: now } : {}),
        ...(mailLocale ? { mailLocale } : {}),
      })
      .where(eq(practiceSettings.userId, userId))
      .returning()
    if (input.dailyGoal !== settings.dailyGoal) {
      await tx
        .update(reviewLog)
        .set({ goal: input.dailyGoal })
        .where(and(eq(reviewLog.userId, userId), eq(reviewLog.day, dayIn(timeZone, now))))
    }
    await publishEvent(tx, { type: 'practice', userId, data: { reason: 'settings' } })
    return publicSettings(fromRow(row as SettingsRow))
  })
}
