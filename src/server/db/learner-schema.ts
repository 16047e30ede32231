import { sql } from 'drizzle-orm'
import { boolean, check, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core'
import { user } from './auth-schema'

/*
 * A learner's practice settings, and what runs for them without a request: the daily reminders
 * sent, and their background jobs (the memory model's fits). Re-exported by schema.ts.
 */

/** One per person, written on the first grade or the first save; defaults until then. */
export const practiceSettings = pgTable(
  'practice_settings',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    newWordsPerDay: integer('new_words_per_day').notNull().default(10),
    dailyGoal: integer('daily_goal').notNull().default(20),
    /** IANA time zone, from the browser. */
    timeZone: text('time_zone').notNull().default('UTC'),
    /** ts-fsrs's FSRSParameters, the library's defaults until an optimizer fits the person's own. */
    fsrsParameters: jsonb('fsrs_parameters').notNull(),
    /** Dates a time-zone change left behind (practice-days.ts: bridgedByZoneChange). */
    bridgedDays: jsonb('bridged_days').$type<string[]>().notNull().default([]),
    /** The ways to practise that are on (shared/practice.ts: practiceWays). */
    ways: jsonb('ways').$type<string[]>().notNull().default(['flashcard', 'type', 'choose', 'listen', 'gap']),
    reminderEnabled: boolean('reminder_enabled').notNull().default(false),
    /** The hour of the learner's day the reminder is sent at, 0–23. */
    reminderHour: smallint('reminder_hour').notNull().default(18),
    /**
     * When the reminder was last turned on or moved to another hour (docs/decisions/0035-reminders.md):
     * turned on within its hour, it goes within 5 minutes of this rather than of the hour's start.
     */
    reminderSetAt: timestamp('reminder_set_at', { withTimezone: true }),
    /** The interface language of the learner's last save (`en`, `ru`): the reminder's language. */
    mailLocale: text('mail_locale').notNull().default('en'),
    desiredRetention: doublePrecision('desired_retention').notNull().default(0.9),
    /**
     * The learner's own memory model, once fitted: the reviews it was fitted from, the log loss of
     * the default and the fitted parameters on them, and when (the parameters are `fsrs_parameters`).
     */
    memoryModel: jsonb('memory_model').$type<{ reviews: number; logLossBefore: number; logLossAfter: number; fittedAt: string }>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('practice_settings_new_words', sql`${table.newWordsPerDay} between 0 and 100`),
    check('practice_settings_goal', sql`${table.dailyGoal} between 1 and 1000`),
    check('practice_settings_reminder_hour', sql`${table.reminderHour} between 0 and 23`),
    check('practice_settings_retention', sql`${table.desiredRetention} between 0.8 and 0.97`),
    // The reminders' sweep looks up the learners whose hour has come, by zone and hour, every minute.
    index('practice_settings_reminder_idx').on(table.timeZone, table.reminderHour).where(sql`${table.reminderEnabled}`),
  ],
)

/**
 * The daily reminders sent: one row per learner and day of theirs, made by the instance that sends
 * it (the primary key: never twice, across instances).
 */
export const practiceReminder = pgTable(
  'practice_reminder',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The learner's date the reminder was for, in their time zone then. */
    day: date('day', { mode: 'string' }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day] })],
)

/**
 * A learner's background work other than imports (docs/decisions/0037-memory-model.md): one row
 * per learner and kind (`fit`: their memory model), due at `runAfter`, claimed with `FOR UPDATE
 * SKIP LOCKED` and a lease, as imports are (api/imports/worker.ts), so each runs once across
 * instances and is taken over when its instance dies.
 */
export const learnerJob = pgTable(
  'learner_job',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.kind] }), index('learner_job_due_idx').on(table.runAfter)],
)
