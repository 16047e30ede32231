import { date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { user } from './auth-schema'

/*
 * What runs for a learner without a request: the daily reminders sent, and their background jobs
 * (the memory model's fits). Re-exported by schema.ts.
 */

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
