import { z } from 'zod/mini'

/**
 * The API's CSV files (a level's words, the can-do statements) share one shape: a resource's file
 * is at `…/csv` — GET reads it, POST (the file as the body, `text/csv`) imports it, `?dryRun=true`
 * first. A row the import refuses is named by its line; with any refusal nothing is written.
 */

/** The path of every CSV file resource ends so; a POST there with `text/csv` is read by its route. */
export const CSV_PATH_SUFFIX = '/csv'

/** One refused row of an import: its line in the file (the header is line 1) and why. */
export interface CsvRefusal {
  line: number
  reason: string
}

/** `POST …/csv?dryRun=true`: check the file, write nothing. */
export const csvImportQuerySchema = z.object({ dryRun: z._default(z.enum(['true', 'false']), 'false') })
