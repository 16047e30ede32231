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
})
