import type { z } from 'zod/mini'
import type { CsvProblem, CsvRefusal } from '@/shared/csv'
import { WORD_CSV_COLUMNS, WORD_CSV_MAX_ROWS } from '@/shared/words'
import { wordInputSchema } from '@/shared/words-schemas'
import { csvFile, csvRecords, refusal, rowShapeProblems } from '@/server/http/csv'
import { ApiError } from '@/server/http/errors'

/**
 * The words file (CSV as http/csv.ts reads and writes it, a header row naming WORD_CSV_COLUMNS in
 * order): read into checked rows, each with its line, or written from words.
 */

export type WordRow = z.output<typeof wordInputSchema>

const header = WORD_CSV_COLUMNS.join(',')

export interface ParsedFile {
  /** Each row with the fields of the `extra` columns the file has (a deck's: deck, tags, notes). */
  rows: { line: number; row: WordRow; extra: Record<string, string> }[]
  refused: CsvRefusal[]
}

/** The file's column of each field of a word. */
const columnOf: Record<string, string> = {
  translationEn: 'translation_en',
  translationRu: 'translation_ru',
  partOfSpeech: 'part_of_speech',
}

/** The first problem of each field at fault. */
function problemsOf(error: z.core.$ZodError): CsvProblem[] {
  const byColumn = new Map<string, CsvProblem>()
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '')
    const column = columnOf[key] ?? key
    if (byColumn.has(column)) continue
    if (issue.code === 'too_small') byColumn.set(column, { code: 'empty', column })
    else if (issue.code === 'too_big') byColumn.set(column, { code: 'tooLong', column, max: Number(issue.maximum) })
    else if (issue.code === 'invalid_value') byColumn.set(column, { code: 'notOneOf', column, values: issue.values.map(String) })
    else byColumn.set(column, { code: 'invalid', column })
  }
  return [...byColumn.values()]
}

/**
 * Reads a words file: a wrong header or too many rows refuse the whole file (400); otherwise each
 * row is checked on its own (every refusal, with its line and reason; NUL in a field is one).
 * `extra`: columns the header may add after the words' own, all of them in this order or none (a
 * deck's file adds deck, tags and notes).
 */
export function parseWordsFile(text: string, extra: readonly string[] = []): ParsedFile {
  const { records: found, refused: unreadable } = csvRecords(text)
  // Not CSV past some line: nothing can be read, and that line is the one refusal.
  if (unreadable.length > 0) return { rows: [], refused: unreadable }
  const [first, ...rest] = found
  const named = first?.fields.map((name) => name.trim()).join(',')
  const withExtra = [header, ...extra].join(',')
  if (named !== header && (extra.length === 0 || named !== withExtra)) {
    throw new ApiError('bad_request', `The first line must be the header: ${extra.length ? withExtra : header}`)
  }
  const columns = named === header ? WORD_CSV_COLUMNS : [...WORD_CSV_COLUMNS, ...extra]
  if (rest.length > WORD_CSV_MAX_ROWS) {
    throw new ApiError('bad_request', `The file has ${rest.length} rows; at most ${WORD_CSV_MAX_ROWS} are taken at once.`)
  }
  const rows: ParsedFile['rows'] = []
  const refused: CsvRefusal[] = []
  for (const { line, fields } of rest) {
    const shape = rowShapeProblems(columns, fields)
    if (shape.length > 0) {
      refused.push(refusal(line, shape))
      continue
    }
    const [language, text, translationEn, translationRu, example, partOfSpeech] = fields as [string, string, string, string, string, string]
    const parsed = wordInputSchema.safeParse({
      language: language.trim(),
      text,
      translationEn,
      translationRu,
      example,
      partOfSpeech: partOfSpeech.trim() === '' ? null : partOfSpeech.trim(),
    })
    const extras = Object.fromEntries(extra.map((column, i) => [column, fields[WORD_CSV_COLUMNS.length + i] ?? '']))
    if (parsed.success) rows.push({ line, row: parsed.data, extra: extras })
    else refused.push(refusal(line, problemsOf(parsed.error)))
  }
  return { rows, refused }
}

/** The words as a file the import takes back unchanged. */
export function wordsFile(words: readonly WordRow[]): string {
  return csvFile(
    WORD_CSV_COLUMNS,
    words.map((word) => [word.language, word.text, word.translationEn, word.translationRu, word.example, word.partOfSpeech]),
  )
}
