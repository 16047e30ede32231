import { z } from 'zod/mini'
import { type AuditEntry, type AuditPage, auditActions } from '@/shared/audit-log'
import type { ClientConfig } from '@/shared/client-config'
import { type DemoEcho, type DemoServerTime, demoMessageSchema } from '@/shared/demo'
import { type ApiErrorBody, errorCodes } from '@/shared/errors'
import {
  ANSWERS,
  type AssessmentProgress,
  type AssessmentResult,
  type AssessmentState,
  type CanDoSet,
  type CanDoStatement,
  type CanDoStatementList,
  type CsvImportReport,
  SKILLS,
  STATEMENT_LANGUAGES,
} from '@/shared/can-do'
import type { CsvRefusal } from '@/shared/csv'
import type { LanguageLevel, LevelPage, LevelUsage } from '@/shared/levels'
import {
  type CardSchedule,
  type GradeResult,
  type NewWordsSource,
  type NextInterval,
  type PracticeCard,
  type PracticeQueue,
  type PracticeSettings,
  type PracticeToday,
  type UndoResult,
  cardStates,
  grades,
  newWordsStatuses,
} from '@/shared/practice'
import { type Word, type WordImportResult, type WordPage, partsOfSpeech } from '@/shared/words'
import type { LearnerProfile } from '@/shared/profile'
import { learnerProfileInputSchema } from '@/shared/profile-schemas'
import { type Overview, PEOPLE_COUNT_CAP, PEOPLE_SEARCH_COUNT_CAP, type PeoplePage, type PersonDetail } from '@/shared/people'
import type { SignInMethods } from '@/shared/sign-in-methods'
import type { SessionUser } from '@/server/http/context'

/**
 * The API's answers, for the OpenAPI document only: requests are documented by the shared schemas
 * that validate them, answers by these. The answer types stay plain interfaces in src/shared (the
 * client's first page must not load zod); each schema here is checked at compile time to describe
 * exactly its type, so the two cannot drift.
 */

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

/**
 * Names a schema as a component of the document (`#/components/schemas/<id>`) and checks that its
 * output is exactly `T`: a schema that differs from its type does not compile (its argument
 * becomes `never`).
 */
function answer<T>(id: string, description: string) {
  return <S extends z.ZodMiniType>(schema: S & (Same<z.output<S>, T> extends true ? unknown : never)): S => {
    z.globalRegistry.add(schema, { id, description })
    return schema
  }
}

// An example, as generators would otherwise make one up from zod's long ISO pattern.
const isoDateTime = z.iso.datetime({ offset: true }).check(z.meta({ examples: ['2026-01-31T09:30:00.000Z'] }))
const count = z.number().check(z.int(), z.minimum(0))
const positiveInt = z.number().check(z.int(), z.minimum(1))
/** The audit's before/after: any JSON (a level, a role, an order). */
const anyJson = z.unknown()

export const apiErrorSchema = answer<ApiErrorBody>(
  'ApiError',
  'The one shape of every failure. `fields` maps a field (dotted path) to its messages.',
)(
  z.object({
    error: z.object({
      code: z.enum(errorCodes),
      message: z.string(),
      fields: z.optional(z.record(z.string(), z.array(z.string()))),
    }),
  }),
)

export const healthSchema = answer<{ status: 'ok'; version: string }>('Health', 'The process is alive.')(
  z.object({ status: z.literal('ok'), version: z.string() }),
)

export const readySchema = answer<{ status: 'ready'; database: 'pglite' | 'postgres' }>(
  'Ready',
  'The database answers.',
)(z.object({ status: z.literal('ready'), database: z.enum(['pglite', 'postgres']) }))

export const clientConfigSchema = answer<ClientConfig>(
  'ClientConfig',
  'What the client reads at start.',
)(
  z.object({
    apiBaseUrl: z.string(),
    appName: z.string(),
    version: z.string(),
    providers: z.array(
      z.object({
        id: z.string().check(z.meta({ description: 'The provider id of `POST /api/auth/sign-in/social`.' })),
        name: z.string().check(z.meta({ description: 'The button says "Continue with {name}".' })),
      }),
    ),
  }),
)

export const demoServerTimeSchema = answer<DemoServerTime>('DemoServerTime', "The database's clock.")(
  z.object({
    databaseTime: isoDateTime,
    requestId: z.string(),
  }),
)

export const demoEchoSchema = answer<DemoEcho>('DemoEcho', 'The message as validated, echoed back.')(
  z.object({ received: demoMessageSchema, receivedAt: isoDateTime, requestId: z.string() }),
)

export const sessionUserSchema = answer<{ user: SessionUser }>('Me', 'The signed-in user.')(
  z.object({
    user: z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      role: z.enum(['user', 'admin']),
      emailVerified: z.boolean(),
    }),
  }),
)

export const avatarSchema = answer<{ image: string }>('Avatar', 'A profile picture just uploaded.')(
  z.object({ image: z.string().check(z.meta({ description: 'Its URL at 256 px, now the account’s `image`.' })) }),
)

export const learnerProfileSchema = answer<LearnerProfile>(
  'LearnerProfile',
  "The learner's language and levels; all null until first saved.",
)(z.extend(learnerProfileInputSchema, { updatedAt: z.nullable(isoDateTime) }))

export const languageLevelSchema = answer<LanguageLevel>('LanguageLevel', 'A language level.')(
  z.object({
    id: positiveInt,
    code: z.string(),
    name: z.string(),
    description: z.string(),
    position: count,
    version: positiveInt,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    createdBy: z.nullable(z.string()),
    updatedBy: z.nullable(z.string()),
  }),
)

export const levelListSchema = answer<LanguageLevel[]>('LanguageLevels', 'Every level, in their order.')(
  z.array(languageLevelSchema),
)

export const levelPageSchema = answer<LevelPage>(
  'LanguageLevelPage',
  'One page of levels; `total` counts the matches over all pages.',
)(z.object({ items: z.array(languageLevelSchema), total: count, page: positiveInt, pageSize: positiveInt }))

export const levelUsageSchema = answer<LevelUsage>(
  'LanguageLevelUsage',
  'How many learners have the level as their current or target level, and how many statements and words go with it when it is deleted.',
)(z.object({ learners: count, statements: count, words: count }))

const skill = z.enum(SKILLS)
const texts = z.object({ en: z.string(), ru: z.string() })

export const canDoStatementSchema = answer<CanDoStatement>('CanDoStatement', 'An "I can…" statement of the self-assessment, in both languages.')(
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

export const canDoStatementsSchema = answer<CanDoStatement[]>('CanDoStatements', 'Statements, in order.')(z.array(canDoStatementSchema))

export const canDoStatementListSchema = answer<CanDoStatementList>(
  'CanDoStatementList',
  'The statements matching the filters, in level, skill and position order.',
)(z.object({ items: canDoStatementsSchema, total: count }))

export const canDoSetSchema = answer<CanDoSet>('CanDoSet', 'The levels in order, and every statement in one language.')(
  z.object({
    lang: z.enum(STATEMENT_LANGUAGES),
    levels: z.array(z.object({ id: positiveInt, code: z.string(), name: z.string() })),
    items: z.array(z.object({ id: positiveInt, levelId: positiveInt, skill, position: count, text: z.string() })),
  }),
)

/** A column of the file, by its header name (the same in every language). */
const csvColumn = z.string().check(z.meta({ examples: ['text_en'] }))

const csvRefusalSchema = answer<CsvRefusal>(
  'CsvRefusal',
  'A refused row of a CSV import: its line (the header is line 1), every problem as data (for a page to say in its language), and all of them in English in `reason`.',
)(
  z.object({
    line: positiveInt,
    reason: z.string(),
    problems: z.array(
      z.discriminatedUnion('code', [
        z.object({ code: z.literal('unreadable'), detail: z.string() }),
        z.object({ code: z.literal('columnCount'), expected: positiveInt, found: count }),
        z.object({ code: z.literal('empty'), column: csvColumn }),
        z.object({ code: z.literal('tooLong'), column: csvColumn, max: positiveInt }),
        z.object({ code: z.literal('nul'), column: csvColumn }),
        z.object({ code: z.literal('notOneOf'), column: csvColumn, values: z.array(z.string()) }),
        z.object({ code: z.literal('invalid'), column: csvColumn }),
        z.object({ code: z.literal('unknownLevel'), value: z.string() }),
        z.object({ code: z.literal('notPosition'), column: csvColumn, max: positiveInt }),
        z.object({ code: z.literal('statementExists'), level: z.string(), skill }),
        z.object({ code: z.literal('cellFull'), level: z.string(), skill, max: positiveInt }),
        z.object({ code: z.literal('sameAsLine'), line: positiveInt }),
        z.object({ code: z.literal('wordOfLevel'), level: z.string() }),
      ]),
    ),
  }),
)

export const csvImportReportSchema = answer<CsvImportReport>(
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

const skillResults = z.array(z.object({ skill, levelCode: z.nullable(z.string()) }))

const assessmentResultSchema = answer<AssessmentResult>(
  'AssessmentResult',
  'A finished self-assessment: each skill’s level and the overall level as level codes (null: below the first level, `firstLevelCode`).',
)(
  z.object({
    id: positiveInt,
    startedAt: isoDateTime,
    takenAt: isoDateTime,
    skills: skillResults,
    overall: z.nullable(z.string()),
    firstLevelCode: z.nullable(z.string()),
  }),
)

export const assessmentProgressSchema = answer<AssessmentProgress>(
  'AssessmentProgress',
  'A self-assessment being taken: where each skill stands, what is asked now, every answer; with the result once finished.',
)(
  z.object({
    id: positiveInt,
    startedAt: isoDateTime,
    finishedAt: z.nullable(isoDateTime),
    skills: z.array(
      z.object({ skill, finished: z.boolean(), levelId: z.nullable(positiveInt), levelCode: z.nullable(z.string()) }),
    ),
    asking: z.nullable(z.object({ skill, levelId: positiveInt, statementIds: z.array(positiveInt) })),
    answers: z.array(z.object({ statementId: positiveInt, answer: z.enum(ANSWERS), answeredAt: isoDateTime })),
    result: z.nullable(assessmentResultSchema),
  }),
)

export const assessmentStateSchema = answer<AssessmentState>(
  'AssessmentState',
  'The self-assessment in progress and the latest result, each null when there is none.',
)(z.object({ inProgress: z.nullable(assessmentProgressSchema), latest: z.nullable(assessmentResultSchema) }))

const languageCode = z.string().check(z.regex(/^[a-z]{2}$/), z.meta({ examples: ['en'] }))
const isoDate = z.iso.date().check(z.meta({ examples: ['2026-01-31'] }))

/** A word as a learner and an administrator read it. */
const wordShape = {
  language: languageCode,
  text: z.string(),
  translationEn: z.string(),
  translationRu: z.string(),
  example: z.nullable(z.string()),
  partOfSpeech: z.nullable(z.enum(partsOfSpeech)),
}

export const wordSchema = answer<Word>('Word', 'A word (or short phrase) of a level, with its translations.')(
  z.object({
    id: positiveInt,
    levelId: positiveInt,
    ...wordShape,
    version: positiveInt,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  }),
)

export const wordPageSchema = answer<WordPage>('WordPage', "One page of a level's words; `total` counts the matches.")(
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

const grade = z.literal(grades)

const cardScheduleSchema = answer<CardSchedule>(
  'CardSchedule',
  "A card's schedule; `version` 0 and state `new` for a word not graded yet. Send `version` back with a grade.",
)(
  z.object({
    state: z.enum(cardStates),
    due: isoDateTime,
    reps: count,
    lapses: count,
    lastReview: z.nullable(isoDateTime),
    version: count,
  }),
)

const nextIntervalSchema = answer<NextInterval>('NextInterval', 'What a grade would do: the next due time, in seconds from now and as a label ("10 min").')(
  z.object({
    grade,
    due: isoDateTime,
    seconds: count,
    label: z.object({ value: z.number().check(z.minimum(0)), unit: z.enum(['minute', 'hour', 'day', 'month', 'year']) }),
  }),
)

const practiceCardSchema = answer<PracticeCard>('PracticeCard', 'A card of the queue: the word, its schedule and each grade’s next interval.')(
  z.object({
    wordId: positiveInt,
    ...wordShape,
    kind: z.enum(['due', 'new']),
    schedule: cardScheduleSchema,
    next: z.array(nextIntervalSchema),
  }),
)

const newWordsSourceSchema = answer<NewWordsSource>(
  'NewWordsSource',
  'Why new words are offered today, or not: `available`, `dailyLimitReached`, `noLevel` (no current level), `noWords` (none at the current level in the language learnt), `levelLearned` (all of them started); with the current level\'s code and the language learnt.',
)(z.object({ status: z.enum(newWordsStatuses), levelCode: z.nullable(z.string()), language: z.nullable(z.string()) }))

export const practiceQueueSchema = answer<PracticeQueue>('PracticeQueue', 'Due cards first, then new words of the current level.')(
  z.object({
    cards: z.array(practiceCardSchema),
    dueNow: count,
    newLeft: count,
    newWords: newWordsSourceSchema,
    laterToday: z.object({ count, next: z.nullable(isoDateTime) }),
    at: isoDateTime,
  }),
)

export const gradeResultSchema = answer<GradeResult>('GradeResult', 'A grade as counted (the same again for its `clientId`).')(
  z.object({
    clientId: z.string(),
    wordId: positiveInt,
    grade,
    reviewedAt: isoDateTime,
    day: isoDate,
    schedule: cardScheduleSchema,
    undone: z.boolean(),
  }),
)

export const undoResultSchema = answer<UndoResult>('UndoResult', 'The card as it was before the grade undone.')(
  z.object({ clientId: z.string(), wordId: positiveInt, schedule: cardScheduleSchema }),
)

export const practiceSettingsSchema = answer<PracticeSettings>('PracticeSettings', "The learner's practice settings (defaults until saved).")(
  z.object({ newWordsPerDay: count, dailyGoal: positiveInt, timeZone: z.string() }),
)

export const practiceTodaySchema = answer<PracticeToday>('PracticeToday', "Today's practice, the streak and the 12-week calendar, in the learner's time zone.")(
  z.object({
    day: isoDate,
    timeZone: z.string(),
    dueToday: count,
    dueNow: count,
    newToday: count,
    newWords: newWordsSourceSchema,
    done: count,
    goal: positiveInt,
    goalMet: z.boolean(),
    streak: count,
    longest: count,
    calendar: z.array(z.object({ date: isoDate, reviews: count, goalMet: z.boolean() })),
  }),
)

/** What a change was, when and to what; who made it is added by each view of the log. */
const auditChange = {
  id: positiveInt,
  action: z.enum(auditActions),
  targetType: z.string(),
  targetId: z.nullable(z.string()),
  before: anyJson,
  after: anyJson,
  at: isoDateTime,
}

const auditEntrySchema = answer<AuditEntry>(
  'AuditEntry',
  'One administrative change; the actor is null for the command line.',
)(z.object({ ...auditChange, actorId: z.nullable(z.string()), actorEmail: z.nullable(z.string()) }))

/**
 * A change in a person's copy of their data: who made it by role only — `you`, an `administrator`,
 * or the `system` (the command line, an automatic grant). An administrator's email or id is that
 * administrator's personal data, not the person's (issue 29).
 */
const exportedAuditEntrySchema = answer<Omit<AuditEntry, 'actorId' | 'actorEmail'> & { actor: 'you' | 'administrator' | 'system' }>(
  'ExportedAuditEntry',
  'One change that the person made or that names them; who made it, by role only.',
)(z.object({ ...auditChange, actor: z.enum(['you', 'administrator', 'system']) }))

export const auditPageSchema = answer<AuditPage>('AuditPage', 'One page of the audit log, newest first.')(
  z.object({ items: z.array(auditEntrySchema), total: count, page: positiveInt, pageSize: positiveInt }),
)

export const signInMethodsSchema = answer<SignInMethods>(
  'SignInMethods',
  'The ways the account signs in. The last one cannot be removed (409); the emailed code is open to every confirmed account and is not listed.',
)(
  z.object({
    password: z.boolean(),
    providers: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        linked: z.array(z.object({ id: z.string(), accountId: z.string(), linkedAt: isoDateTime })),
      }),
    ),
    passkeys: z.array(
      z.object({
        id: z.string(),
        name: z.nullable(z.string()),
        createdAt: z.nullable(isoDateTime),
        lastUsedAt: z.nullable(isoDateTime),
        deviceType: z.string(),
        backedUp: z.boolean(),
      }),
    ),
    count: count,
  }),
)

const personRowShape = {
  id: z.string(),
  name: z.string(),
  email: z.string(),
  image: z.nullable(z.string()),
  role: z.enum(['user', 'admin']),
  emailVerified: z.boolean(),
  twoFactorEnabled: z.boolean(),
  disabled: z.boolean(),
  createdAt: isoDateTime,
  lastSignInAt: z.nullable(isoDateTime),
}

export const peoplePageSchema = answer<PeoplePage>(
  'PeoplePage',
  `One page of accounts. \`total\` counts the matches up to ${PEOPLE_COUNT_CAP} (${PEOPLE_SEARCH_COUNT_CAP} with \`q\`); \`totalCapped\` says there are more.`,
)(
  z.object({
    items: z.array(z.object(personRowShape)),
    total: count,
    totalCapped: z.boolean(),
    page: positiveInt,
    pageSize: positiveInt,
  }),
)

const levelRef = z.nullable(z.object({ id: positiveInt, code: z.string(), name: z.string() }))

export const personDetailSchema = answer<PersonDetail>('Person', 'One account as administrators see it (no secret).')(
  z.object({
    ...personRowShape,
    lastActiveAt: z.nullable(isoDateTime),
    signInMethods: z.array(
      z.object({
        kind: z.enum(['password', 'provider', 'passkey']),
        id: z.string(),
        name: z.string(),
        addedAt: z.nullable(isoDateTime),
      }),
    ),
    learner: z.nullable(z.object({ language: z.nullable(z.string()), currentLevel: levelRef, targetLevel: levelRef })),
    latestAssessment: z.nullable(assessmentResultSchema),
    sessions: z.array(
      z.object({
        id: z.string(),
        userAgent: z.nullable(z.string()),
        ipAddress: z.nullable(z.string()),
        createdAt: isoDateTime,
        lastActiveAt: isoDateTime,
        expiresAt: isoDateTime,
      }),
    ),
  }),
)

const levelCount = z.object({ levelId: positiveInt, code: z.string(), name: z.string(), learners: count })

export const overviewSchema = answer<Overview>(
  'Overview',
  'The figures of the user base, computed at `computedAt` (kept for up to 30 s per instance).',
)(
  z.object({
    accounts: count,
    confirmed: count,
    twoFactor: count,
    disabled: count,
    admins: count,
    activeLast7Days: count,
    activeLast30Days: count,
    newThisWeek: count,
    currentLevels: z.array(levelCount),
    targetLevels: z.array(levelCount),
    currentLevelNone: count,
    targetLevelNone: count,
    assessedLevels: z.array(z.object({ code: z.string(), name: z.nullable(z.string()), learners: count })),
    assessedBelowFirstLevel: count,
    signUpsPerWeek: z.array(z.object({ weekStart: z.iso.date(), count })),
    computedAt: isoDateTime,
  }),
)

const dataExportShape = z.object({
  format: z.literal('lingua-data-export/1'),
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
        fsrsParameters: anyJson,
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
      }),
    ),
  }),
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

export const dataExportSchema = answer<DataExport>(
  'DataExport',
  'Everything Lingua holds about one person, without secrets (no password hash, authenticator secret, backup code or token).',
)(dataExportShape)
