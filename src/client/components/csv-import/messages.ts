import { params } from '@nanostores/i18n'
import { plural } from '@/client/lib/format'
import { i18n } from '@/client/lib/i18n'

/** The CSV import dialog of every CSV file of the API (docs/decisions/0022-csv-files.md). */
export const csvImportMessages = i18n('csvImport', {
  file: 'CSV file',
  chooseFile: 'Choose a file',
  noFile: 'No file chosen',
  chooseFirst: 'Choose a file first.',
  check: 'Check file',
  checking: 'Checking…',
  import: 'Import',
  importing: 'Importing…',
  close: 'Close',
  refusedTitle: plural<{ count: number }>('count', {
    one: '{count} row is refused. Nothing is imported until the file is fixed.',
    other: '{count} rows are refused. Nothing is imported until the file is fixed.',
  }),
  refusedCaption: 'Refused rows',
  line: 'Line',
  reason: 'Reason',
  notCsv: 'This is not a CSV file. Choose a file ending in .csv.',
  unreadable: 'The file could not be read as CSV:',
  changedSince: 'Something changed since the check: these rows are refused now. Nothing was imported.',
  // Why a row is refused (shared/csv.ts CsvProblem). A column is named as in the file's header.
  unreadableRow: params<{ detail: string }>('Not valid CSV from here: {detail}'),
  columnCount: plural<{ expected: number; found: number }>('expected', {
    one: 'Expected {expected} column, found {found}.',
    other: 'Expected {expected} columns, found {found}.',
  }),
  empty: params<{ column: string }>('{column} is empty.'),
  tooLong: plural<{ column: string; max: number }>('max', {
    one: '{column} is longer than {max} character.',
    other: '{column} is longer than {max} characters.',
  }),
  nul: params<{ column: string }>('{column} contains the NUL character.'),
  notOneOf: params<{ column: string; values: string }>('{column} must be one of: {values}.'),
  invalid: params<{ column: string }>('{column} has a value it does not take.'),
  unknownLevel: params<{ value: string }>('No level has the code “{value}”.'),
  notPosition: params<{ column: string; max: string }>('{column} must be empty or a whole number from 0 to {max}.'),
  statementExists: params<{ level: string; skill: string }>('{level}, {skill} already has this statement.'),
  cellFull: plural<{ level: string; skill: string; max: number }>('max', {
    one: '{level}, {skill} would have more than {max} statement.',
    other: '{level}, {skill} would have more than {max} statements.',
  }),
  sameAsLine: params<{ line: string }>('The same word as line {line}.'),
  wordOfLevel: params<{ level: string }>('Already a word of level {level}.'),
})
