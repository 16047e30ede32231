import { z } from 'zod/mini'
import type { Skill } from './can-do'

/**
 * The API's CSV files (a level's words, the can-do statements) share one shape: a resource's file
 * is at `…/csv` — GET reads it, POST (the file as the body, `text/csv`) imports it, `?dryRun=true`
 * first. A row the import refuses is named by its line; with any refusal nothing is written.
 */

/** The path of every CSV file resource ends so; a POST there with `text/csv` is read by its route. */
export const CSV_PATH_SUFFIX = '/csv'

/**
 * Why a row is refused, as data: the API's `reason` says it in English, the admin pages in the
 * interface language. `column` is the file's column (its header name, the same in every language).
 */
export type CsvProblem =
  /** The file is not CSV from this line on (a quote never closed…): csv-parse's detail, in English. */
  | { code: 'unreadable'; detail: string }
  | { code: 'columnCount'; expected: number; found: number }
  | { code: 'empty'; column: string }
  | { code: 'tooLong'; column: string; max: number }
  | { code: 'nul'; column: string }
  | { code: 'notOneOf'; column: string; values: string[] }
  /** Any other value a column does not take. */
  | { code: 'invalid'; column: string }
  /** A level's code no level has. */
  | { code: 'unknownLevel'; value: string }
  /** Not a whole number from 0 to `max`. */
  | { code: 'notPosition'; column: string; max: number }
  /** The level and skill (cell) already has this statement. */
  | { code: 'statementExists'; level: string; skill: Skill }
  /** The cell would hold more than `max` statements. */
  | { code: 'cellFull'; level: string; skill: Skill; max: number }
  /** The same row as an earlier line of the file. */
  | { code: 'sameAsLine'; line: number }
  /** A word another level has. */
  | { code: 'wordOfLevel'; level: string }

/** One refused row of an import: its line in the file (the header is line 1) and why. */
export interface CsvRefusal {
  line: number
  /** Every problem of the row, in English (for scripts and logs). */
  reason: string
  problems: CsvProblem[]
}

/** `POST …/csv?dryRun=true`: check the file, write nothing. */
export const csvImportQuerySchema = z.object({ dryRun: z._default(z.enum(['true', 'false']), 'false') })
