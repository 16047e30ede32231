import type { z } from 'zod/mini'
import type { CsvRefusal } from '@/shared/csv'
import { WORD_CSV_COLUMNS, WORD_CSV_MAX_ROWS } from '@/shared/words'
import { wordInputSchema } from '@/shared/words-schemas'
import { csvFile, csvRecords } from '@/server/http/csv'
import { ApiError } from '@/server/http/errors'

/**
 * The words file (CSV as http/csv.ts reads and writes it, a header row naming WORD_CSV_COLUMNS in
 * order): read into checked rows, each with its line, or written from words.
 */

export type WordRow = z.output<typeof wordInputSchema>

const header = WORD_CSV_COLUMNS.join(',')

export interface ParsedFile {
  rows: { line: number; row: WordRow }[]
  refused: CsvRefusal[]
}

/** The first message of each field at fault, as one reason ("text: too long; …"). */
function reasonOf(error: z.core.$ZodError): string {
  const byField = new Map<string, string>()
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '_')
    if (!byField.has(key)) byField.set(key, issue.message)
  }
  const column = (key: string) => ({ translationEn: 'translation_en', translationRu: 'translation_ru', partOfSpeech: 'part_of_speech' })[key] ?? key
  return [...byField].map(([key, message]) => `${column(key)}: ${message}`).join('; ')
}

/**
 * Reads a words file: NUL, a wrong header or too many rows refuse the whole file (400); otherwise
 * each row is checked on its own (every refusal, with its line and reason).
 */
export function parseWordsFile(text: string): ParsedFile {
  if (text.includes('\u0000')) throw new ApiError('bad_request', 'The file contains the NUL character.')
  const { records: found, refused: unreadable } = csvRecords(text)
  // Not CSV past some line: nothing can be read, and that line is the one refusal.
  if (unreadable.length > 0) return { rows: [], refused: unreadable }
  const [first, ...rest] = found
  if (!first || first.fields.map((name) => name.trim()).join(',') !== header) {
    throw new ApiError('bad_request', `The first line must be the header: ${header}`)
  }
  if (rest.length > WORD_CSV_MAX_ROWS) {
    throw new ApiError('bad_request', `The file has ${rest.length} rows; at most ${WORD_CSV_MAX_ROWS} are taken at once.`)
  }
  const rows: { line: number; row: WordRow }[] = []
  const refused: CsvRefusal[] = []
  for (const { line, fields } of rest) {
    if (fields.length !== WORD_CSV_COLUMNS.length) {
      refused.push({ line, reason: `Expected ${WORD_CSV_COLUMNS.length} fields, found ${fields.length}.` })
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
    if (parsed.success) rows.push({ line, row: parsed.data })
    else refused.push({ line, reason: reasonOf(parsed.error) })
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
