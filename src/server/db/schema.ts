import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { user } from './auth-schema'

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

/** One per user: what they learn and at which levels. */
export const learnerProfile = pgTable(
  'learner_profile',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    /**
     * An ISO 639-1 code. The API checks it against LEARNABLE_LANGUAGES; the database only checks
     * its form, so that changing the list needs no migration and never invalidates saved rows.
     */
    language: text('language'),
    // Deleting a level clears it from the profiles that use it (docs/product.md §4).
    currentLevelId: integer('current_level_id').references(() => languageLevel.id, {
      onDelete: 'set null',
    }),
    targetLevelId: integer('target_level_id').references(() => languageLevel.id, {
      onDelete: 'set null',
    }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('learner_profile_language_iso639_1', sql`${table.language} ~ '^[a-z]{2}$'`),
    // For the usage count before a delete, and for the ON DELETE SET NULL that follows it.
    index('learner_profile_current_level_idx').on(table.currentLevelId),
    index('learner_profile_target_level_idx').on(table.targetLevelId),
  ],
)

/** Every administrative change, written in the transaction of the change itself. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Null for the command line and automatic grants, or once the actor's account is deleted. */
    actorId: text('actor_id').references(() => user.id, { onDelete: 'set null' }),
    /** Kept as it was at the time: it outlives the account and its later email changes. */
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Read newest first (`ORDER BY at DESC, id DESC`: the rows of one transaction share `at`).
  // NULLS FIRST is DESC's default, which the query's ORDER BY has: drizzle would write NULLS LAST.
  (table) => [
    index('audit_log_at_idx').on(table.at.desc().nullsFirst(), table.id.desc().nullsFirst()),
  ],
)

/** Binary data (PostgreSQL `bytea`), read and written as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  // node-postgres gives a Buffer, PGlite a Uint8Array: one type for the app.
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
})

/**
 * One profile picture per account, as the server re-encoded it (never as sent): WebP at 256 px and
 * 64 px, addressed by `hash` (of the 256 px image) in its URLs, so a new picture never reuses an old
 * URL. In the database, so every instance serves it and backups include it.
 */
export const avatar = pgTable('avatar', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  hash: text('hash').notNull(),
  large: bytea('large').notNull(),
  small: bytea('small').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * The events of the live stream (events/bus.ts), kept for a while so that a client that
 * reconnects gets what it missed (`Last-Event-ID`). Ids are in commit order: they are taken under
 * a lock held until the commit. No foreign key: an account's events outlive its deletion.
 */
export const liveEvent = pgTable('live_event', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  type: text('type').notNull(),
  /** The account an `account` event is for; null for the others. */
  userId: text('user_id'),
  data: jsonb('data').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * One row once any account has ever been an administrator (granted by ADMIN_EMAILS, the first
 * verifier, the admin API or the CLI), never removed: the first-verifier grant happens only while
 * it is missing, so losing every administrator later does not hand the role to the next stranger
 * who confirms an email (docs/security.md, "Administrators").
 */
export const adminMilestone = pgTable('admin_milestone', {
  id: integer('id').primaryKey().default(1),
  firstAdminAt: timestamp('first_admin_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Secrets the server makes itself and every instance shares (e.g. the auth signing secret). */
export const serverSecret = pgTable('server_secret', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

export * from './auth-schema'
