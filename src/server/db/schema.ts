import { sql } from 'drizzle-orm'
import { check, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

export const languageLevel = pgTable(
  'language_level',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    position: integer('position').notNull(),
    /** Incremented on every change; the precondition of an update. */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
  },
  (table) => [
    uniqueIndex('language_level_code_lower_idx').on(sql`lower(${table.code})`),
    check('language_level_position_nonnegative', sql`${table.position} >= 0`),
  ],
)

/** Secrets the server makes itself and every instance shares (e.g. the auth signing secret). */
export const serverSecret = pgTable('server_secret', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

export * from './auth-schema.js'
