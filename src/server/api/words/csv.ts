import type { z } from 'zod/mini'
import { WORD_CSV_COLUMNS, WORD_CSV_MAX_ROWS, type RefusedRow } from '@/shared/words'
import { wordInputSchema } from '@/shared/words-schemas'

/**
 * The words file (RFC 4180 CSV, UTF-8, a header row naming WORD_CSV_COLUMNS in order): read into
 * checked rows, each with its line, or written from words. Pure.
 */

export type WordRow = z.output<typeof wordInputSchema>

/** A record of the file and the line it starts on (a quoted field may span lines). */
interface Record {
  line: number
  fields: string[]
}

/** Splits CSV text into records; a quote left open is the last record's problem, reported. */
function records(text: string): { records: Record[]; unterminatedAt?: number } {
  const found: Record[] = []
  let fields: string[] = []
  let field = ''
  let quoted = false
  let line = 1
  let start = 1
  let i = 0
  const endRecord = () => {
    fields.push(field)
    // A blank line (a lone empty field) is no record: files often end with one.
    if (!(fields.length === 1 && fields[0] === '')) found.push({ line: start, fields })
    fields = []
    field = ''
  }
  while (i < text.length) {
    const char = text[i] as string
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"'
          i += 2
          continue
        }
        quoted = false
      } else {
        if (char === '\n') line++
        field += char
      }
      i++
      continue
    }
    if (char === '"' && field === '') quoted = true
    else if (char === ',') {
      fields.push(field)
      field = ''
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[i + 1] === '\n') i++
      endRecord()
      line++
      start = line
    } else field += char
    i++
  }
  if (quoted) return { records: found, unterminatedAt: start }
  if (field !== '' || fields.length > 0) endRecord()
  return { records: found }
}

const header = WORD_CSV_COLUMNS.join(',')

export type ParsedFile =
  | { ok: true; rows: { line: number; row: WordRow }[]; refused: RefusedRow[] }
  | { ok: false; reason: string }

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
 * Reads a words file's bytes: not UTF-8, a wrong header or too many rows refuse the whole file;
 * otherwise each row is checked on its own (every refusal, with its line and reason).
 */
export function parseWordsFile(bytes: Uint8Array): ParsedFile {
  let text: string
  try {
    // A byte-order mark is dropped (spreadsheets write one); invalid UTF-8 is refused, not guessed.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    return { ok: false, reason: 'The file is not valid UTF-8 text.' }
  }
  if (text.includes('\u0000')) return { ok: false, reason: 'The file contains the NUL character.' }
  const { records: found, unterminatedAt } = records(text)
  const [first, ...rest] = found
  if (!first || first.fields.map((name) => name.trim()).join(',') !== header) {
    return { ok: false, reason: `The first line must be the header: ${header}` }
  }
  if (rest.length > WORD_CSV_MAX_ROWS) return { ok: false, reason: `At most ${WORD_CSV_MAX_ROWS} rows a file.` }
  const rows: { line: number; row: WordRow }[] = []
  const refused: RefusedRow[] = []
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
  if (unterminatedAt !== undefined) refused.push({ line: unterminatedAt, reason: 'A quoted field is not closed.' })
  return { ok: true, rows, refused }
}

/** A field as CSV writes it: quoted when it holds a comma, a quote, a line break or edge spaces. */
function field(value: string | null): string {
  const text = value ?? ''
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The words as a file the import takes back unchanged (CRLF line ends, as RFC 4180 has). */
export function wordsFile(words: readonly WordRow[]): string {
  const lines = words.map((word) =>
    [word.language, word.text, word.translationEn, word.translationRu, word.example, word.partOfSpeech].map(field).join(','),
  )
  return `${[header, ...lines].join('\r\n')}\r\n`
}
