import { CsvError, parse } from 'csv-parse/sync'
import type { Context } from 'hono'
import type { CsvProblem, CsvRefusal } from '@/shared/csv'
import { csvType, readBody } from './body'
import type { AppEnv } from './context'
import { ApiError } from './errors'

/**
 * CSV files sent to and read from the API (the can-do statements, the words of a level; the shape
 * in shared/csv.ts): UTF-8 only, a header row, RFC 4180 quoting. Reading is csv-parse's; each record
 * keeps the line it ends on, so a refused row can be named by its line. Lines may end in CRLF, LF or
 * CR, mixed in one file (a line break inside a quoted field is read as LF).
 *
 * A field a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage
 * return, or such a field already behind `'`s) is written with one more `'` before it, which
 * spreadsheets show as text; reading drops that one `'` again, so an exported file imports back
 * unchanged.
 */

/** The uploaded file of an import as text: 415 unless `text/csv`, 413 over `maxBytes`, 400 unless UTF-8. */
export async function readCsvUpload(c: Context<AppEnv>, maxBytes: number): Promise<string> {
  if (!csvType.test(c.req.header('content-type') ?? '')) {
    throw new ApiError('unsupported_media_type', 'Send the CSV file as the body, with the type text/csv.')
  }
  return decodeCsv(await readBody(c.req.raw, maxBytes))
}

/** A problem of a row in English, for the API's `reason`. */
function problemText(problem: CsvProblem): string {
  switch (problem.code) {
    case 'unreadable':
      return `Not valid CSV: ${problem.detail}`
    case 'columnCount':
      return `Expected ${problem.expected} columns, found ${problem.found}.`
    case 'empty':
      return `${problem.column} is empty.`
    case 'tooLong':
      return `${problem.column} is longer than ${problem.max} characters.`
    case 'nul':
      return `${problem.column} contains the NUL character.`
    case 'notOneOf':
      return `${problem.column} must be one of ${problem.values.join(', ')}.`
    case 'invalid':
      return `${problem.column} has a value it does not take.`
    case 'unknownLevel':
      return `No level has the code "${problem.value}".`
    case 'notPosition':
      return `${problem.column} must be empty or a whole number from 0 to ${problem.max}.`
    case 'statementExists':
      return `${problem.level} ${problem.skill} already has this statement.`
    case 'cellFull':
      return `${problem.level} ${problem.skill} would have more than ${problem.max} statements.`
    case 'sameAsLine':
      return `The same word as line ${problem.line}.`
    case 'wordOfLevel':
      return `Already a word of level ${problem.level}.`
  }
}

/** A refused row: its line, its problems, and them in English. */
export function refusal(line: number, problems: CsvProblem[]): CsvRefusal {
  return { line, reason: problems.map(problemText).join(' '), problems }
}

/**
 * What refuses a row before its values are read: fields other in number than the header's columns,
 * or NUL in a field (which the database cannot store; one problem per field, named by its column).
 * The row is refused, not the file: a NUL in the header makes a header that is not the one asked.
 */
export function rowShapeProblems(columns: readonly string[], fields: readonly string[]): CsvProblem[] {
  if (fields.length !== columns.length) return [{ code: 'columnCount', expected: columns.length, found: fields.length }]
  return fields.flatMap((field, index) => (field.includes('\u0000') ? [{ code: 'nul' as const, column: columns[index] ?? '' }] : []))
}

/** Refusals this many at most are named in an error's `fields`; a dry run lists them all. */
const REFUSALS_IN_ERROR = 100

/** The 400 of an import with refused rows: nothing was written; `fields` names rows as `line 12`. */
export function refusedRowsError(refused: readonly CsvRefusal[]): ApiError {
  const fields = Object.fromEntries(refused.slice(0, REFUSALS_IN_ERROR).map(({ line, reason }) => [`line ${line}`, [reason]]))
  const count = refused.length
  return new ApiError('validation_failed', `${count} ${count === 1 ? 'row is' : 'rows are'} refused: nothing was written. A dry run lists them all.`, fields)
}

/** A would-be formula, or one already behind quote marks (so that those survive the round trip). */
const formulaStart = /^'*[=+\-@\t\r]/
const escapedFormula = /^'+[=+\-@\t\r]/

/** The text of a file: strict UTF-8 (a BOM is dropped); 400 naming the first line that is not. */
function decodeCsv(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    // Only on failure: the first line that does not decode, for the message.
    const decoder = new TextDecoder('utf-8', { fatal: true })
    let line = 1
    let start = 0
    for (let at = 0; at <= bytes.length; at++) {
      if (at < bytes.length && bytes[at] !== 0x0a) continue
      try {
        decoder.decode(bytes.subarray(start, at))
      } catch {
        break
      }
      line += 1
      start = at + 1
    }
    throw new ApiError(
      'bad_request',
      `The file is not UTF-8 text (line ${line}): save it as "CSV UTF-8" and send it again.`,
    )
  }
}

export interface CsvRecord {
  /** The line the record ends on (the header is line 1; a quoted field may span lines). */
  line: number
  fields: string[]
}

/**
 * The records of a file, blank lines skipped. A file that is not CSV (a quote never closed, a
 * character after a closing quote) cannot be read past that point: it is one refusal, with its line.
 */
export function csvRecords(text: string): { records: CsvRecord[]; refused: CsvRefusal[] } {
  try {
    // One line end: csv-parse takes the first line's as every record's (a CRLF header then LF rows
    // read as one record), and counts CR and LF as two lines inside a quoted field.
    const parsed = parse(text.replace(/\r\n?/g, '\n'), { bom: true, info: true, relax_column_count: true, skip_empty_lines: true }) as unknown as {
      info: { lines: number }
      record: string[]
    }[]
    return {
      records: parsed.map(({ info, record }) => ({
        line: info.lines,
        fields: record.map((field) => (escapedFormula.test(field) ? field.slice(1) : field)),
      })),
      refused: [],
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error
    const line = (error as CsvError & { lines?: number }).lines ?? 1
    return { records: [], refused: [refusal(line, [{ code: 'unreadable', detail: error.message.replace(/^[^:]*:\s*/, '') }])] }
  }
}

/**
 * One field: a would-be formula behind a `'`; quoted when it holds a comma, a quote, a line break or
 * spaces at an edge (RFC 4180).
 */
function csvField(value: string | number | null): string {
  const raw = value === null ? '' : String(value)
  const text = formulaStart.test(raw) ? `'${raw}` : raw
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/**
 * A file of `rows` under the `columns` header, CRLF line ends, with a BOM: spreadsheet programs
 * then read it as UTF-8 (without one, Excel takes the system's code page and garbles the Russian).
 */
export function csvFile(columns: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  const lines = [columns.join(','), ...rows.map((row) => row.map(csvField).join(','))]
  return `\ufeff${lines.join('\r\n')}\r\n`
}
