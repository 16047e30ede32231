import { z } from 'zod/mini'
import { IMPORT_MAX_BYTES, type ImportJob, importErrorCodes, importStatuses } from '@/shared/imports'
import { describe, json, multipart } from '@/server/openapi/describe'
import { answer, count, isoDateTime, positiveInt } from '@/server/openapi/schemas'

const tags = ['Imports']

const importSchema = answer<ImportJob>('Import', 'An import of a CSV file or an Anki package: its progress, then what it did or why it failed.')(
  z.object({
    id: z.string(),
    kind: z.enum(['csv', 'anki']),
    fileName: z.string(),
    status: z.enum(importStatuses),
    done: count,
    total: count,
    notes: count,
    cards: count,
    reviews: count,
    media: count,
    decks: z.array(z.object({ id: positiveInt, name: z.string(), cards: count })),
    skipped: z.array(z.object({ note: z.string(), reason: z.string() })),
    error: z.optional(z.object({ code: z.enum(importErrorCodes), what: z.optional(z.string()) })),
    createdAt: isoDateTime,
    finishedAt: z.nullable(isoDateTime),
  }),
)

export const describeStartImport = describe({
  operationId: 'startImport',
  summary: 'Import a CSV file or an Anki package',
  description: `\`multipart/form-data\` with the file in \`file\` (at most ${IMPORT_MAX_BYTES / 1024 / 1024} MB, streamed: 413 past it, nothing kept): an Anki package (\`.apkg\`, \`.colpkg\`: \`collection.anki2\`, \`collection.anki21\` or \`collection.anki21b\`) or a CSV file in the words' columns, which goes into the deck named by the field \`deckId\` (400 without it). \`language\`: the language of the decks an Anki package makes (default: the learner's). Answered 202 with the job's id; \`GET /api/me/imports/{id}\` follows it (the live stream's \`practice\` event, reason \`import\`, tells when it moved). All or nothing; run once across instances; taken over by another instance after a crash.`,
  tags,
  access: 'user',
  requestBody: multipart({ file: 'file', deckId: 'text', language: 'text' }, ['file'], 'The file and the options.'),
  responses: {
    202: {
      ...json(z.object({ id: z.string() }), 'The import, queued.'),
      headers: { Location: { description: 'The URL of the import.', schema: { type: 'string' } } },
    },
  },
  errors: [413, 415, 429, 503],
})

export const describeImports = describe({
  operationId: 'listImports',
  summary: "The learner's latest imports",
  tags,
  access: 'user',
  responses: { 200: json(z.array(importSchema), 'Up to 20, newest first.') },
  errors: [503],
})

export const describeImportStatus = describe({
  operationId: 'readImport',
  summary: 'One import',
  description: 'Another learner\'s import is 404.',
  tags,
  access: 'user',
  responses: { 200: json(importSchema, 'The import.') },
  errors: [404, 503],
})
