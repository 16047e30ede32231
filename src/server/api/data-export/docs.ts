import { z } from 'zod/mini'
import type { AuditEntry } from '@/shared/audit-log'
import { ANSWERS } from '@/shared/can-do'
import { cardStates } from '@/shared/practice'
import { describe, json } from '@/server/openapi/describe'
import { answer, anyJson, count, isoDate, isoDateTime, positiveInt, skill } from '@/server/openapi/schemas'
import { auditChange } from '@/server/api/audit-log'
import { skillResults } from '@/server/api/assessment/docs'

/** The format of the file, named in it: a later version adds fields, never changes one. */
export const EXPORT_FORMAT = 'lingua-data-export/1'

/**
 * A change in a person's copy of their data: who made it by role only — `you`, an `administrator`,
 * or the `system` (the command line, an automatic grant). An administrator's email or id is that
 * administrator's personal data, not the person's (issue 29).
 */
const exportedAuditEntrySchema = answer<Omit<AuditEntry, 'actorId' | 'actorEmail'> & { actor: 'you' | 'administrator' | 'system' }>(
  'ExportedAuditEntry',
  'One change that the person made or that names them; who made it, by role only.',
)(z.object({ ...auditChange, actor: z.enum(['you', 'administrator', 'system']) }))

const dataExportShape = z.object({
  format: z.literal(EXPORT_FORMAT),
  exportedAt: isoDateTime,
  account: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    emailConfirmed: z.boolean(),
    role: z.enum(['user', 'admin']),
    disabled: z.boolean(),
    twoStepVerification: z.boolean(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    lastSignInAt: z.nullable(isoDateTime),
    lastActiveAt: z.nullable(isoDateTime),
  }),
  picture: z.nullable(z.string().check(z.meta({ description: 'The picture’s URL (256 px), null for none.' }))),
  signInMethods: z.object({
    password: z.boolean(),
    providers: z.array(
      z.object({ provider: z.string(), accountId: z.string(), scope: z.nullable(z.string()), linkedAt: isoDateTime }),
    ),
    passkeys: z.array(
      z.object({
        id: z.string(),
        name: z.nullable(z.string()),
        deviceType: z.string(),
        backedUp: z.boolean(),
        createdAt: z.nullable(isoDateTime),
        lastUsedAt: z.nullable(isoDateTime),
      }),
    ),
  }),
  sessions: z.array(
    z.object({
      id: z.string(),
      createdAt: isoDateTime,
      lastActiveAt: isoDateTime,
      expiresAt: isoDateTime,
      ipAddress: z.nullable(z.string()),
      userAgent: z.nullable(z.string()),
    }),
  ),
  learnerProfile: z.nullable(
    z.object({
      language: z.nullable(z.string()),
      currentLevel: z.nullable(z.string()),
      targetLevel: z.nullable(z.string()),
      updatedAt: isoDateTime,
    }),
  ),
  assessments: z.array(
    z.object({
      startedAt: isoDateTime,
      finishedAt: z.nullable(isoDateTime),
      result: z.nullable(z.object({ skills: skillResults, overall: z.nullable(z.string()), firstLevelCode: z.nullable(z.string()) })),
      answers: z.array(
        z.object({ level: z.string(), skill, statement: z.string(), answer: z.enum(ANSWERS), answeredAt: isoDateTime }),
      ),
    }),
  ),
  auditEntries: z.array(exportedAuditEntrySchema),
  practice: z.object({
    settings: z.nullable(
      z.object({
        newWordsPerDay: count,
        dailyGoal: positiveInt,
        timeZone: z.string(),
        ways: z.array(z.string()),
        reminderEnabled: z.boolean(),
        reminderHour: count,
        desiredRetention: z.number(),
        fsrsParameters: anyJson,
        memoryModel: z.nullable(z.object({ reviews: count, logLossBefore: z.number(), logLossAfter: z.number(), fittedAt: isoDateTime })),
        bridgedDays: z.array(isoDate),
        updatedAt: isoDateTime,
      }),
    ),
    cards: z.array(
      z.object({
        wordId: positiveInt,
        word: z.string(),
        language: z.string(),
        state: z.enum(cardStates),
        due: isoDateTime,
        stability: z.number(),
        difficulty: z.number(),
        reps: count,
        lapses: count,
        lastReview: z.nullable(isoDateTime),
        suspended: z.boolean(),
      }),
    ),
  }),
  decks: z.array(
    z.object({
      id: positiveInt,
      name: z.string(),
      language: z.string(),
      description: z.nullable(z.string()),
      practiseDaily: z.boolean(),
      createdAt: isoDateTime,
    }),
  ),
  media: z.array(z.object({ hash: z.string(), name: z.string(), type: z.string(), size: count, createdAt: isoDateTime })),
  deckCards: z.array(
    z.object({
      deckId: positiveInt,
      noteId: positiveInt,
      guid: z.string(),
      kind: z.string(),
      wordId: positiveInt,
      ordinal: count,
      text: z.string(),
      translationEn: z.string(),
      translationRu: z.string(),
      example: z.nullable(z.string()),
      partOfSpeech: z.nullable(z.string()),
      notes: z.nullable(z.string()),
      tags: z.array(z.string()),
      fields: z.nullable(z.array(z.string())),
    }),
  ),
  practiceReviews: z.array(
    z.object({
      clientId: z.string(),
      wordId: z.nullable(positiveInt),
      grade: count,
      stateBefore: z.enum(cardStates),
      reviewedAt: isoDateTime,
      receivedAt: isoDateTime,
      day: isoDate,
      goal: positiveInt,
      undoneAt: z.nullable(isoDateTime),
    }),
  ),
})
export type DataExport = z.output<typeof dataExportShape>

const dataExportSchema = answer<DataExport>(
  'DataExport',
  'Everything Lingua holds about one person, without secrets (no password hash, authenticator secret, backup code or token).',
)(dataExportShape)

export const describeExport = describe({
  operationId: 'exportMyData',
  summary: 'Download a copy of your data',
  description: `One JSON file (\`format\`: \`${EXPORT_FORMAT}\`, sent as an attachment, streamed) with everything Lingua holds about you: the account, sign-in methods, sessions, learner profile, self-assessments (results and answers), practice (settings, cards, every review), decks (their words and cards, media as names and hashes), picture (as URLs) and the audit entries you made or that name you. No secret is in it: no password hash, authenticator secret, backup code, session token or provider token. 429 after 5 copies in an hour.`,
  tags: ['Account'],
  access: 'user',
  responses: {
    200: json(dataExportSchema, 'The copy, as a file to save.'),
  },
  errors: [429, 503],
})
