import {
  CAN_DO_CSV_COLUMNS,
  CAN_DO_CSV_MAX_ROWS,
  SKILLS,
  type Skill,
  STATEMENTS_PER_CELL_MAX,
  STATEMENT_TEXT_MAX,
} from '@/shared/can-do'
import type { CsvProblem, CsvRefusal } from '@/shared/csv'
import { csvFile, csvRecords, refusal, rowShapeProblems } from '@/server/http/csv'
import { ApiError } from '@/server/http/errors'
import { type ImportContext, type ImportRow, cellKey } from './store'

/**
 * The CSV file of statements (docs/decisions/0018): UTF-8 with a header row naming the columns of
 * CAN_DO_CSV_COLUMNS (any order), one statement per row. Rows are appended to their cells; a file
 * is taken whole or not at all, so every row is checked and every refusal reported with its line.
 */

const columnsText = CAN_DO_CSV_COLUMNS.join(',')

/** A text of a cell: trimmed, 1–300 characters (NUL refuses the row before: rowShapeProblems). */
function textProblem(value: string, column: string): CsvProblem | undefined {
  if (value === '') return { code: 'empty', column }
  if (value.length > STATEMENT_TEXT_MAX) return { code: 'tooLong', column, max: STATEMENT_TEXT_MAX }
  return undefined
}

const POSITION_MAX = 9999
const positionPattern = /^\d{1,4}$/

interface Parsed {
  /** Data rows read (the header not counted). */
  rows: number
  valid: (ImportRow & { line: number; position: number | null })[]
  refused: CsvRefusal[]
}

/**
 * Reads and checks a file against the levels and cells of `context`. 400 for a file that cannot
 * be a statements file at all (no header row, other columns, too many rows); every row refused
 * otherwise is listed, with its line (the header is line 1; a row spanning lines is named by its
 * last) and the reason.
 */
export function checkCsv(text: string, context: ImportContext): Parsed {
  const { records: all, refused } = csvRecords(text)
  const [header, ...rows] = all
  if (!header) {
    if (refused.length > 0) return { rows: 0, valid: [], refused }
    throw new ApiError('bad_request', `The file is empty: the first row must be the header ${columnsText}.`)
  }
  const names = header.fields.map((name) => name.trim().toLowerCase())
  const columns = new Map(names.map((name, index) => [name, index]))
  if (names.length !== CAN_DO_CSV_COLUMNS.length || !CAN_DO_CSV_COLUMNS.every((name) => columns.has(name))) {
    throw new ApiError('bad_request', `The header row must name the columns ${columnsText} (in any order).`)
  }
  if (rows.length > CAN_DO_CSV_MAX_ROWS) {
    throw new ApiError('bad_request', `The file has ${rows.length} rows; at most ${CAN_DO_CSV_MAX_ROWS} are taken at once.`)
  }
  const field = (fields: string[], name: (typeof CAN_DO_CSV_COLUMNS)[number]) => (fields[columns.get(name) ?? -1] ?? '').trim()

  const valid: Parsed['valid'] = []
  // What each cell holds so far: the database's statements, then this file's valid rows.
  const seen = new Map<string, Set<string>>()
  const textsOf = (key: string) => {
    let texts = seen.get(key)
    if (!texts) seen.set(key, (texts = new Set((context.cells.get(key) ?? []).map((t) => t.toLowerCase()))))
    return texts
  }
  for (const { line, fields } of rows) {
    const problems: CsvProblem[] = []
    const shape = rowShapeProblems(names, fields)
    if (shape.length > 0) {
      refused.push(refusal(line, shape))
      continue
    }
    const code = field(fields, 'level')
    const level = context.levels.get(code.toLowerCase())
    if (!level) problems.push(code ? { code: 'unknownLevel', value: code } : { code: 'empty', column: 'level' })
    const skill = field(fields, 'skill')
    if (!SKILLS.includes(skill as Skill)) problems.push({ code: 'notOneOf', column: 'skill', values: [...SKILLS] })
    const position = field(fields, 'position')
    if (position !== '' && !positionPattern.test(position)) problems.push({ code: 'notPosition', column: 'position', max: POSITION_MAX })
    const textEn = field(fields, 'text_en')
    const textRu = field(fields, 'text_ru')
    for (const problem of [textProblem(textEn, 'text_en'), textProblem(textRu, 'text_ru')]) if (problem) problems.push(problem)
    if (level && problems.length === 0) {
      const cell = { level: level.code, skill: skill as Skill }
      const texts = textsOf(cellKey(level.id, skill))
      if (texts.has(textEn.toLowerCase())) problems.push({ code: 'statementExists', ...cell })
      else if (texts.size >= STATEMENTS_PER_CELL_MAX) problems.push({ code: 'cellFull', ...cell, max: STATEMENTS_PER_CELL_MAX })
      else texts.add(textEn.toLowerCase())
    }
    if (problems.length > 0) refused.push(refusal(line, problems))
    else if (level) valid.push({ line, levelId: level.id, skill: skill as Skill, textEn, textRu, position: position === '' ? null : Number(position) })
  }
  refused.sort((a, b) => a.line - b.line)
  return { rows: rows.length, valid, refused }
}

/**
 * The valid rows in the order they are appended: within a cell by their `position` (rows without
 * one after those with), then as they come in the file.
 */
export function importOrder(rows: Parsed['valid']): ImportRow[] {
  return [...rows]
    .sort((a, b) => (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) || a.line - b.line)
    .map(({ levelId, skill, textEn, textRu }) => ({ levelId, skill, textEn, textRu }))
}

/** The file of every statement, as the import reads it. */
export function writeCsv(rows: { level: string; skill: string; position: number; textEn: string; textRu: string }[]): string {
  return csvFile(
    CAN_DO_CSV_COLUMNS,
    rows.map((row) => [row.level, row.skill, row.position, row.textEn, row.textRu]),
  )
}
