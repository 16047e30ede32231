import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { user } from './auth-schema'
import { bytea } from './columns'
import { deck, deckNote } from './decks-schema'

/**
 * What an administrator edits carries: a `version` incremented on every change (the precondition
 * of an update: 409 when stale), when and by whom it was made and last changed.
 */
const editedColumns = () => ({
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  createdBy: text('created_by'),
  updatedBy: text('updated_by'),
})

export const languageLevel = pgTable(
  'language_level',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    position: integer('position').notNull(),
    ...editedColumns(),
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

/**
 * "I can…" statements of the self-assessment (docs/product.md §10): one level, one skill, a text
 * per interface language, a position within its level and skill (0..n-1, kept contiguous by the
 * API). A statement goes with its level: deleting the level deletes them (the confirmation counts
 * them first, `GET /api/language-levels/{id}/usage`).
 */
export const canDoStatement = pgTable(
  'can_do_statement',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    levelId: integer('level_id')
      .notNull()
      .references(() => languageLevel.id, { onDelete: 'cascade' }),
    /** One of SKILLS (src/shared/can-do.ts); a new skill needs a migration, as the rule counts five. */
    skill: text('skill').notNull(),
    position: integer('position').notNull(),
    textEn: text('text_en').notNull(),
    textRu: text('text_ru').notNull(),
    ...editedColumns(),
  },
  (table) => [
    check(
      'can_do_statement_skill',
      sql`${table.skill} in ('listening', 'reading', 'spoken-interaction', 'spoken-production', 'writing')`,
    ),
    check('can_do_statement_position_nonnegative', sql`${table.position} >= 0`),
    // A cell in order (the assessment, the admin table, the reorder), and the level's cascade.
    index('can_do_statement_cell_idx').on(table.levelId, table.skill, table.position),
  ],
)

/**
 * One self-assessment of a learner: started, then finished when every skill is. The result is
 * kept as level codes (text), not level ids: a level deleted later does not take it away.
 */
export const assessment = pgTable(
  'assessment',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    /** Null while it is being taken. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Each skill's level code (null: below the first level), once finished. */
    skillLevels: jsonb('skill_levels').$type<Record<string, string | null>>(),
    /** The overall level's code; null below the first level (or while in progress). */
    overallLevelCode: text('overall_level_code'),
    /** The first level at the time ("Below {first level}"). */
    firstLevelCode: text('first_level_code'),
  },
  (table) => [
    // At most one in progress per learner: a second start finds it (and two at once cannot both
    // make one).
    uniqueIndex('assessment_in_progress_idx').on(table.userId).where(sql`${table.finishedAt} is null`),
    // The latest result of a learner (dashboard, admin, overview).
    index('assessment_user_finished_idx').on(table.userId, table.finishedAt.desc()),
  ],
)

/** The answers of an assessment, one per statement (answering again replaces it). */
export const assessmentAnswer = pgTable(
  'assessment_answer',
  {
    assessmentId: integer('assessment_id')
      .notNull()
      .references(() => assessment.id, { onDelete: 'cascade' }),
    // A statement deleted later takes its answers with it; the result is kept as text anyway.
    statementId: integer('statement_id')
      .notNull()
      .references(() => canDoStatement.id, { onDelete: 'cascade' }),
    can: boolean('can').notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.assessmentId, table.statementId] }),
    // For the cascade of a statement's deletion.
    index('assessment_answer_statement_idx').on(table.statementId),
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

// --- Practice: words by level, their cards per person (FSRS), review logs, settings -------------
// (docs/decisions/0019-practice.md)

/** A word or short phrase to practise, of one level: deleting the level deletes its words. */
export const word = pgTable(
  'word',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** A course word's level; null for a card of a learner's deck. */
    levelId: integer('level_id').references(() => languageLevel.id, { onDelete: 'cascade' }),
    /** A deck's card: its deck and note, and which card of the note (0, or 1 the reverse, n-1 cloze n). */
    deckId: integer('deck_id').references(() => deck.id, { onDelete: 'cascade' }),
    noteId: integer('note_id').references(() => deckNote.id, { onDelete: 'cascade' }),
    ordinal: smallint('ordinal').notNull().default(0),
    /** ISO 639-1 code of the language it teaches (checked by the API against LEARNABLE_LANGUAGES). */
    language: text('language').notNull(),
    text: text('text').notNull(),
    translationEn: text('translation_en').notNull(),
    translationRu: text('translation_ru').notNull(),
    example: text('example'),
    partOfSpeech: text('part_of_speech'),
    /** An imported card's sides as cleaned HTML (images, sounds, formatting); `text` and the translations are their plain text. */
    frontHtml: text('front_html'),
    backHtml: text('back_html'),
    /**
     * A deck's card that its owner has a practice card of (graded, or imported with a schedule or
     * suspended): not one of the deck's new cards. Kept with `practice_card` by the grade, its undo
     * and the import, so that the new cards are a range of `word_deck_new_idx`, not every card
     * checked for a practice card. Always false for a course word (shared by every learner).
     */
    practised: boolean('practised').notNull().default(false),
    ...editedColumns(),
  },
  (table) => [
    // One word per language, spelling (ignoring case) and part of speech ("light" the noun and
    // "light" the adjective are two): what an import matches rows on.
    uniqueIndex('word_language_text_idx')
      .on(table.language, sql`lower(${table.text})`, sql`coalesce(${table.partOfSpeech}, '')`)
      .where(sql`${table.levelId} is not null`),
    // A level's words in order (the admin list, new words of a level), and the cascade.
    index('word_level_idx').on(table.levelId, table.id),
    // A deck's cards in order (its page, its new cards), and the cascades.
    index('word_deck_idx').on(table.deckId, table.id).where(sql`${table.deckId} is not null`),
    // A deck's new cards in order (the daily queue's, a deck's own practice).
    index('word_deck_new_idx').on(table.deckId, table.id).where(sql`${table.deckId} is not null and not ${table.practised}`),
    uniqueIndex('word_note_idx').on(table.noteId, table.ordinal).where(sql`${table.noteId} is not null`),
    check('word_language_iso639_1', sql`${table.language} ~ '^[a-z]{2}$'`),
    check('word_course_or_deck', sql`(${table.levelId} is null) <> (${table.deckId} is null and ${table.noteId} is null)`),
  ],
)

/**
 * One person's card of one word: ts-fsrs's Card, field by field. No row until the word is first
 * graded (reading the queue writes nothing); deleted with the person or the word.
 */
export const practiceCard = pgTable(
  'practice_card',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    wordId: integer('word_id')
      .notNull()
      .references(() => word.id, { onDelete: 'cascade' }),
    due: timestamp('due', { withTimezone: true }).notNull(),
    stability: doublePrecision('stability').notNull(),
    difficulty: doublePrecision('difficulty').notNull(),
    elapsedDays: integer('elapsed_days').notNull(),
    scheduledDays: integer('scheduled_days').notNull(),
    learningSteps: integer('learning_steps').notNull(),
    reps: integer('reps').notNull(),
    lapses: integer('lapses').notNull(),
    /** ts-fsrs's State: 0 new, 1 learning, 2 review, 3 relearning. */
    state: smallint('state').notNull(),
    lastReview: timestamp('last_review', { withTimezone: true }),
    /** Suspended in Anki (kept on import): not in the queue. */
    suspended: boolean('suspended').notNull().default(false),
    /** Incremented by every grade and undo: the precondition of a grade (two tabs, one review). */
    version: integer('version').notNull().default(1),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.wordId] }),
    // What is due for a person, oldest first, in the queue's order: many cards share a due time (a
    // day's, after an Anki import), so the word breaks the tie and the first twenty are read in order.
    index('practice_card_due_idx').on(table.userId, table.due, table.wordId),
    index('practice_card_word_idx').on(table.wordId),
  ],
)

/**
 * One row per grade, kept so that a schedule can be recomputed (ts-fsrs's ReviewLog: the rating,
 * the card's state before, the time), with the whole card before and after (for undo, and to
 * answer a grade sent again). `clientId` is the client's id of the answer: unique per person, so
 * a grade sent twice counts once. Outlives its word (set null): past days keep their counts.
 */
export const reviewLog = pgTable(
  'review_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    wordId: integer('word_id').references(() => word.id, { onDelete: 'set null' }),
    clientId: text('client_id').notNull(),
    /** The grade, 1–4 (ts-fsrs's Rating). */
    rating: smallint('rating').notNull(),
    /** ts-fsrs's ReviewLog: the card's state, due, stability… before the grade. */
    state: smallint('state').notNull(),
    due: timestamp('due', { withTimezone: true }).notNull(),
    stability: doublePrecision('stability').notNull(),
    difficulty: doublePrecision('difficulty').notNull(),
    elapsedDays: integer('elapsed_days').notNull(),
    lastElapsedDays: integer('last_elapsed_days').notNull(),
    scheduledDays: integer('scheduled_days').notNull(),
    learningSteps: integer('learning_steps').notNull(),
    /** When it was graded: the client's time when believed, else the server's. */
    review: timestamp('review', { withTimezone: true }).notNull(),
    /** When the server received it. */
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** The learner's date of `review` in their time zone then: never recomputed. */
    day: date('day', { mode: 'string' }).notNull(),
    /**
     * The daily goal of its day: the one then, or one set later that same day (written onto the
     * day's reviews): a day is judged by the goal in force when it ended, never by a later one.
     */
    goal: integer('goal').notNull(),
    /** The card before (null: the word was new) and after, as stored in practice_card. */
    cardBefore: jsonb('card_before'),
    cardAfter: jsonb('card_after').notNull(),
    /** Set by an undo: the grade no longer counts. */
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('review_log_client_idx').on(table.userId, table.clientId),
    // A person's reviews per day (today, the streak, the calendar).
    index('review_log_day_idx').on(table.userId, table.day),
    // The new words a person started on a day (the allowance), not read through the day's reviews.
    index('review_log_new_idx')
      .on(table.userId, table.day)
      .where(sql`${table.cardBefore} is null`),
    index('review_log_latest_idx').on(table.userId, table.id),
    // For the SET NULL that deleting a word does.
    index('review_log_word_idx').on(table.wordId),
    check('review_log_rating', sql`${table.rating} between 1 and 4`),
  ],
)

export * from './auth-schema'
export * from './decks-schema'
export * from './learner-schema'
