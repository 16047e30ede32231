import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { user } from './auth-schema'
import { bytea } from './columns'

// --- The learner's own words: decks, their notes, media and imports (docs/decisions/0032-decks.md) ---
// A deck's cards are rows of `word` (schema.ts) with `note_id` set: the queue, grades, undo and the
// outbox treat them as they treat course words. Nothing here is readable by anyone but its owner.

/** A learner's deck. `ankiId`: the Anki deck it was imported from (importing again finds it). */
export const deck = pgTable(
  'deck',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** ISO 639-1 code of its words' language. */
    language: text('language').notNull(),
    description: text('description'),
    /** "Practise this deck every day": its cards join the daily queue. */
    practiseDaily: boolean('practise_daily').notNull().default(true),
    ankiId: bigint('anki_id', { mode: 'number' }),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('deck_user_idx').on(table.userId, table.id),
    uniqueIndex('deck_user_anki_idx').on(table.userId, table.ankiId).where(sql`${table.ankiId} is not null`),
    check('deck_name_length', sql`char_length(${table.name}) between 1 and 100`),
    check('deck_language_iso639_1', sql`${table.language} ~ '^[a-z]{2}$'`),
  ],
)

/**
 * A note: what the learner writes or imports, from which its cards (`word` rows) are made — one for
 * a basic note, two for a reversed one, one per cloze number. `guid` is Anki's (or a new one): a
 * package imported again updates the note it finds by it. `fields` keeps the cleaned HTML of each
 * field, for a note type Lingua shows as front and back only.
 */
export const deckNote = pgTable(
  'deck_note',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    deckId: integer('deck_id')
      .notNull()
      .references(() => deck.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    guid: text('guid').notNull(),
    /** basic | reversed | optionalReversed | typing | cloze */
    kind: text('kind').notNull().default('basic'),
    /** An imported note's fields, cleaned (src/server/api/imports/sanitize.ts): what its cards show. */
    fields: jsonb('fields').$type<string[]>(),
    notes: text('notes'),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    /** Content hashes of its media (learner_media). */
    image: text('image'),
    audio: text('audio'),
    ankiId: bigint('anki_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('deck_note_guid_idx').on(table.userId, table.guid),
    index('deck_note_deck_idx').on(table.deckId, table.id),
  ],
)

/** A learner's media file, stored once by its content hash (SHA-256), counted in their quota. */
export const learnerMedia = pgTable(
  'learner_media',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    hash: text('hash').notNull(),
    /** The sniffed type (image/…, audio/…), never the file's claim. */
    type: text('type').notNull(),
    size: integer('size').notNull(),
    /** The name it had in the package (`[sound:name]`, `<img src="name">`). */
    name: text('name').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.hash] })],
)

/**
 * An import: a job in the database, claimed by one instance at a time (`FOR UPDATE SKIP LOCKED`, a
 * lease renewed while it runs), its progress written as it goes. Its file is kept in
 * `import_upload` until it ends, so another instance can take it over.
 */
export const importJob = pgTable(
  'import_job',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** csv | anki */
    kind: text('kind').notNull(),
    fileName: text('file_name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** What the learner chose: the CSV's deck, or a new deck's name and language. */
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    /** queued | running | done | failed */
    status: text('status').notNull().default('queued'),
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    result: jsonb('result').$type<Record<string, unknown>>(),
    /** The refusal's code and, for a damaged file, what (shown in the learner's language). */
    error: jsonb('error').$type<{ code: string; what?: string }>(),
    attempts: integer('attempts').notNull().default(0),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('import_job_user_idx').on(table.userId, table.createdAt.desc()),
    index('import_job_waiting_idx').on(table.createdAt).where(sql`${table.status} in ('queued', 'running')`),
  ],
)

/** The uploaded file of an import, in chunks of 1 MiB, until the import ends. */
export const importUpload = pgTable(
  'import_upload',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => importJob.id, { onDelete: 'cascade' }),
    part: integer('part').notNull(),
    data: bytea('data').notNull(),
  },
  (table) => [primaryKey({ columns: [table.jobId, table.part] })],
)
