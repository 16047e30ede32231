import type { CsvRefusal } from './csv'

/**
 * Can-do statements and the self-assessment (docs/product.md §10): skills, bounds and the API's
 * answer types. No zod here, so that the client's pages can use them without loading the
 * validation library (`can-do-schemas.ts` has the schemas).
 */

/** The five skills, in the order the assessment asks them and every list shows them. */
export const SKILLS = ['listening', 'reading', 'spoken-interaction', 'spoken-production', 'writing'] as const
export type Skill = (typeof SKILLS)[number]

/** The interface languages every statement has a text in (both required). */
export const STATEMENT_LANGUAGES = ['en', 'ru'] as const
export type StatementLanguage = (typeof STATEMENT_LANGUAGES)[number]

/** A statement's text in one language: 1–300 characters of plain text. */
export const STATEMENT_TEXT_MAX = 300
/** Statements in one cell (a level and a skill) at most: an assessment asks all of a level's. */
export const STATEMENTS_PER_CELL_MAX = 100

/** The two answers ("I can do this", "Not yet"). */
export const ANSWERS = ['can', 'not-yet'] as const
export type Answer = (typeof ANSWERS)[number]

/**
 * The CSV file of statements: UTF-8 (a BOM is allowed), this header row, one statement per row.
 * `position` is optional (empty: after the others of its cell, in file order).
 */
export const CAN_DO_CSV_COLUMNS = ['level', 'skill', 'position', 'text_en', 'text_ru'] as const
/** The largest CSV file taken (a 10,000-row file is about 1.5 MB). */
export const CAN_DO_CSV_MAX_BYTES = 5 * 1024 * 1024
/** Rows a file may have at most. */
export const CAN_DO_CSV_MAX_ROWS = 20_000

/** A statement as administrators read it (dates as ISO strings). */
export interface CanDoStatement {
  id: number
  levelId: number
  /** The level's code now (a statement goes with its level). */
  levelCode: string
  skill: Skill
  /** 0-based and contiguous within its level and skill. */
  position: number
  text: Record<StatementLanguage, string>
  /** Increased by every edit: the precondition of the next one (409 when stale). */
  version: number
  createdAt: string
  updatedAt: string
}

/** `GET /api/admin/can-do-statements`. */
export interface CanDoStatementList {
  items: CanDoStatement[]
  /** Statements matching the filters. */
  total: number
}

/** `GET /api/can-do-statements?lang=…`: what a learner is asked, in one language. */
export interface CanDoSet {
  lang: StatementLanguage
  /** Every level, in their order. */
  levels: { id: number; code: string; name: string }[]
  /** Every statement, by level order, skill order and position. */
  items: { id: number; levelId: number; skill: Skill; position: number; text: string }[]
}

/** `POST /api/admin/can-do-statements/csv`: what was (or, on a dry run, would be) written. */
export interface CsvImportReport {
  dryRun: boolean
  /** Data rows read. */
  rows: number
  /** Statements added: 0 unless every row was valid and it was not a dry run. */
  created: number
  /** Every refused row; when any is, nothing is written. */
  refused: CsvRefusal[]
}

/** A skill's level in a result: a level's code as it was, or null for "Below {first level}". */
export interface SkillResult {
  skill: Skill
  levelCode: string | null
}

/**
 * A finished self-assessment. Levels are kept as their codes at the time, as text: a level
 * deleted later does not take the result with it.
 */
export interface AssessmentResult {
  id: number
  startedAt: string
  takenAt: string
  /** In SKILLS order. */
  skills: SkillResult[]
  /** Null: below the first level (see `firstLevelCode`). */
  overall: string | null
  /** The first level when it was taken, for "Below {first level}"; null if there was none. */
  firstLevelCode: string | null
}

/** Where one skill of an assessment in progress stands. */
export interface SkillProgress {
  skill: Skill
  finished: boolean
  /** The level reached so far (every lower level reached too); null: none yet. */
  levelId: number | null
  levelCode: string | null
}

/** An assessment being taken (`finishedAt` null), or one that just finished (with `result`). */
export interface AssessmentProgress {
  id: number
  startedAt: string
  finishedAt: string | null
  /** In SKILLS order. */
  skills: SkillProgress[]
  /**
   * What is asked now: a level of the first unfinished skill and its statements, in order (some
   * may be answered already, when the learner went back). Null once every skill is finished.
   */
  asking: { skill: Skill; levelId: number; statementIds: number[] } | null
  /** Every answer given so far, oldest first. */
  answers: { statementId: number; answer: Answer; answeredAt: string }[]
  result: AssessmentResult | null
}

/** `GET /api/me/assessment`: the assessment in progress, if any, and the latest result, if any. */
export interface AssessmentState {
  inProgress: AssessmentProgress | null
  latest: AssessmentResult | null
}
