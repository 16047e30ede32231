import { z } from 'zod/mini'
import {
  WORD_CSV_COLUMNS,
  WORD_CSV_MAX_BYTES,
  WORD_CSV_MAX_ROWS,
  type Word,
  type WordImportResult,
  type WordPage,
  partsOfSpeech,
} from '@/shared/words'
import { describe, file, json } from '@/server/openapi/describe'
import { answer, count, csvRefusalSchema, isoDateTime, positiveInt } from '@/server/openapi/schemas'

const tags = ['Words']

const languageCode = z.string().check(z.regex(/^[a-z]{2}$/), z.meta({ examples: ['en'] }))

/** A word's text, translations, example and part of speech, in a level or in a deck. */
export const wordTextShape = {
  text: z.string(),
  translationEn: z.string(),
  translationRu: z.string(),
  example: z.nullable(z.string()),
  partOfSpeech: z.nullable(z.enum(partsOfSpeech)),
}

/** A word as a learner and an administrator read it. */
export const wordShape = { language: languageCode, ...wordTextShape }

const wordSchema = answer<Word>('Word', 'A word (or short phrase) of a level, with its translations.')(
  z.object({
    id: positiveInt,
    levelId: positiveInt,
    ...wordShape,
    version: positiveInt,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  }),
)

const wordPageSchema = answer<WordPage>('WordPage', "One page of a level's words; `total` counts the matches.")(
  z.object({ items: z.array(wordSchema), total: count, page: positiveInt, pageSize: positiveInt }),
)

export const wordImportResultSchema = answer<WordImportResult>(
  'WordImportResult',
  'What an import did, or would do on a dry run; every refused row with its line (the header is line 1).',
)(
  z.object({
    dryRun: z.boolean(),
    rows: count,
    created: count,
    updated: count,
    unchanged: count,
    refused: z.array(csvRefusalSchema),
  }),
)
const columns = WORD_CSV_COLUMNS.map((column) => `\`${column}\``).join(', ')

export const describeList = describe({
  operationId: 'listWords',
  summary: "Search and page a level's words",
  description: '`q` searches the text and both translations, ignoring case; in the order they were added.',
  tags,
  access: 'admin',
  responses: { 200: json(wordPageSchema, 'One page of words.') },
  errors: [404, 503],
})

export const describeCreate = describe({
  operationId: 'createWord',
  summary: 'Add a word to a level',
  description: 'A word is unique by language, text (ignoring case) and part of speech: 409 on `text` otherwise. Audited, and announced on the live stream (`words`).',
  tags,
  access: 'admin',
  responses: {
    201: {
      ...json(wordSchema, 'The new word.'),
      headers: { Location: { description: 'The URL of the new word.', schema: { type: 'string' } } },
    },
  },
  errors: [404, 409, 429, 503],
})

export const describePatch = describe({
  operationId: 'updateWord',
  summary: 'Change a word',
  description: 'Sends the `version` it read: 409 when the word changed since, or when it would duplicate another.',
  tags,
  access: 'admin',
  responses: { 200: json(wordSchema, 'The word, its version one higher.') },
  errors: [404, 409, 429, 503],
})

export const describeDelete = describe({
  operationId: 'deleteWord',
  summary: 'Delete a word',
  description: "Learners' cards of it go with it; their past reviews stay counted in their days.",
  tags,
  access: 'admin',
  responses: { 204: { description: 'Deleted.' } },
  errors: [404, 429, 503],
})

export const describeExport = describe({
  operationId: 'exportWords',
  summary: "A level's words as CSV",
  description: `UTF-8, a header row, then one word a row: ${columns}. A field that a spreadsheet would take for a formula (starting with =, +, -, @) is written behind a \`'\`. The import takes the file back as it is.`,
  tags,
  access: 'admin',
  responses: { 200: file(['text/csv'], 'The file, as an attachment.') },
  errors: [404, 503],
})

export const describeImport = describe({
  operationId: 'importWords',
  summary: 'Import words into a level from CSV',
  description: `The body is the file (\`Content-Type: text/csv\`, UTF-8, at most ${WORD_CSV_MAX_BYTES / 1024 / 1024} MB and ${WORD_CSV_MAX_ROWS} rows), its first line the header ${columns}. A row naming a word of this level (same language, text and part of speech) updates it; a new one is added. \`dryRun=true\` writes nothing and lists every refused row with its line and reason; without it, one refused row and nothing is written (400, the first 100 refusals in \`fields\` as \`line 12\`). A field written with a leading \`'\` before =, +, -, @ (as the export protects formulas) is read without it. 400 also for a file that is not UTF-8 (the message names the line), without the header row, or with more rows.`,
  tags,
  access: 'admin',
  requestBody: { ...file(['text/csv'], 'The words file.'), required: true },
  responses: { 200: json(wordImportResultSchema, 'What was (or, on a dry run, would be) done.') },
  errors: [404, 409, 413, 415, 429, 503],
})
