import { z } from 'zod/mini'
import {
  CAN_DO_CSV_COLUMNS,
  CAN_DO_CSV_MAX_ROWS,
  type CanDoSet,
  type CanDoStatement,
  type CanDoStatementList,
  type CsvImportReport,
  STATEMENTS_PER_CELL_MAX,
  STATEMENT_LANGUAGES,
} from '@/shared/can-do'
import { describe, file, json } from '@/server/openapi/describe'
import { answer, count, csvRefusalSchema, isoDateTime, positiveInt, skill } from '@/server/openapi/schemas'

const tags = ['Can-do statements']

const texts = z.object({ en: z.string(), ru: z.string() })

const canDoStatementSchema = answer<CanDoStatement>('CanDoStatement', 'An "I can…" statement of the self-assessment, in both languages.')(
  z.object({
    id: positiveInt,
    levelId: positiveInt,
    levelCode: z.string(),
    skill,
    position: count,
    text: texts,
    version: positiveInt,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  }),
)

const canDoStatementsSchema = answer<CanDoStatement[]>('CanDoStatements', 'Statements, in order.')(z.array(canDoStatementSchema))

const canDoStatementListSchema = answer<CanDoStatementList>(
  'CanDoStatementList',
  'The statements matching the filters, in level, skill and position order.',
)(z.object({ items: canDoStatementsSchema, total: count }))

const canDoSetSchema = answer<CanDoSet>('CanDoSet', 'The levels in order, and every statement in one language.')(
  z.object({
    lang: z.enum(STATEMENT_LANGUAGES),
    levels: z.array(z.object({ id: positiveInt, code: z.string(), name: z.string() })),
    items: z.array(z.object({ id: positiveInt, levelId: positiveInt, skill, position: count, text: z.string() })),
  }),
)

const csvImportReportSchema = answer<CsvImportReport>(
  'CsvImportReport',
  'What an import wrote (`created`), or on a dry run would write, and every refused row with its line.',
)(
  z.object({
    dryRun: z.boolean(),
    rows: count,
    created: count,
    refused: z.array(csvRefusalSchema),
  }),
)

export const describeSet = describe({
  operationId: 'getCanDoStatements',
  summary: 'The statements a learner is asked, in one language',
  description: 'Public. Every level in order, and every statement by level order, skill order and position, with its text in `lang` (`en` by default).',
  tags,
  access: 'public',
  responses: { 200: json(canDoSetSchema, 'The levels and statements.') },
  errors: [503],
})

export const describeList = describe({
  operationId: 'listCanDoStatements',
  summary: 'Every statement, both languages',
  description: 'Filters by level and skill; `q` searches both texts, ignoring case. In level, skill and position order.',
  tags,
  access: 'admin',
  responses: { 200: json(canDoStatementListSchema, 'The statements.') },
  errors: [503],
})

export const describeCreate = describe({
  operationId: 'createCanDoStatement',
  summary: 'Add a statement',
  description: `Added last in its level and skill (at most ${STATEMENTS_PER_CELL_MAX}: 409 beyond). A level that does not exist is 400 on \`levelId\`.`,
  tags,
  access: 'admin',
  responses: { 201: json(canDoStatementSchema, 'The new statement.') },
  errors: [409, 429, 503],
})

export const describePatch = describe({
  operationId: 'updateCanDoStatement',
  summary: 'Change the texts of a statement',
  description: 'Sends the `version` it read: 409 when the statement changed since (no lost update).',
  tags,
  access: 'admin',
  responses: { 200: json(canDoStatementSchema, 'The statement, its version one higher.') },
  errors: [404, 409, 429, 503],
})

export const describeDelete = describe({
  operationId: 'deleteCanDoStatement',
  summary: 'Delete a statement',
  description: 'The others of its level and skill close the gap; the answers given to it go with it (results keep their levels).',
  tags,
  access: 'admin',
  responses: { 204: { description: 'Deleted.' } },
  errors: [404, 429, 503],
})

export const describeOrder = describe({
  operationId: 'reorderCanDoStatements',
  summary: 'Put the statements of one level and skill in a new order',
  description: 'Every statement id of that level and skill once, first to last; 409 when statements were added or deleted there since they were read.',
  tags,
  access: 'admin',
  responses: { 200: json(canDoStatementsSchema, 'The statements of that level and skill, in the new order.') },
  errors: [409, 429, 503],
})

const columns = CAN_DO_CSV_COLUMNS.map((name) => `\`${name}\``).join(', ')

export const describeExport = describe({
  operationId: 'exportCanDoStatements',
  summary: 'Every statement as a CSV file',
  description: `UTF-8 with a BOM, a header row (${columns}), one statement per row in level, skill and position order: the file the import reads. A field that a spreadsheet would take for a formula (starting with =, +, -, @) is written behind a \`'\`.`,
  tags,
  access: 'admin',
  responses: { 200: file(['text/csv'], 'The file, as an attachment.') },
  errors: [503],
})

export const describeImport = describe({
  operationId: 'importCanDoStatements',
  summary: 'Add statements from a CSV file',
  description: `The file is the body (\`Content-Type: text/csv\`, UTF-8, at most 5 MB and ${CAN_DO_CSV_MAX_ROWS} rows): a header row naming ${columns} in any order, one statement per row. \`level\` is a level's code (ignoring case), \`skill\` one of the five skills' keys, \`position\` empty or a number that orders the rows of one level and skill (they are added after its statements). Every row is checked: one that repeats a statement of its level and skill (the English text, ignoring case), or would make more than ${STATEMENTS_PER_CELL_MAX} there, is refused too. With \`dryRun=true\` nothing is written and the report lists every refused row with its line (the header is line 1) and reason. Without it, the rows are written only when none is refused; otherwise nothing is written and the answer is 400 with \`fields\` naming the first 100 refused rows (\`line 12\`). A field written with a leading \`'\` before =, +, -, @ (as the export protects formulas) is read without it. 400 also for a file that is not UTF-8 (the message names the line), without the header row, or with more rows.`,
  tags,
  access: 'admin',
  requestBody: { ...file(['text/csv'], 'The CSV file.'), required: true },
  responses: { 200: json(csvImportReportSchema, 'What was (or, on a dry run, would be) written, and every refused row.') },
  errors: [409, 413, 415, 429, 503],
})
