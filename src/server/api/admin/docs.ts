import { z } from 'zod/mini'
import {
  type Overview,
  PEOPLE_COUNT_CAP,
  PEOPLE_SEARCH_COUNT_CAP,
  PEOPLE_SUBSTRING_MIN,
  type PeoplePage,
  type PersonDetail,
} from '@/shared/people'
import { describe, json } from '@/server/openapi/describe'
import { answer, count, isoDateTime, positiveInt } from '@/server/openapi/schemas'
import { assessmentResultSchema } from '@/server/api/assessment/docs'

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

const peoplePageSchema = answer<PeoplePage>(
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

const personDetailSchema = answer<PersonDetail>('Person', 'One account as administrators see it (no secret).')(
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

const overviewSchema = answer<Overview>(
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

const tags = ['People']
const person = json(personDetailSchema, 'The account as it is now.')
const done = { 204: { description: 'Done.' } }

export const describeOverview = describe({
  operationId: 'getAdminOverview',
  summary: 'The figures of the user base',
  description: 'Accounts, confirmed, two-step, active, new; learners per level; sign-ups per week. Kept up to 30 s per instance.',
  tags,
  access: 'admin',
  responses: { 200: json(overviewSchema, 'The figures.') },
  errors: [503],
})

export const describeListPeople = describe({
  operationId: 'listPeople',
  summary: 'Search, filter, sort and page the accounts',
  description:
    `\`q\` matches the start of a name or an email (under ${PEOPLE_SUBSTRING_MIN} characters), or any part of them (${PEOPLE_SUBSTRING_MIN} or more), ignoring case. Counts stop at ${PEOPLE_COUNT_CAP}, or ${PEOPLE_SEARCH_COUNT_CAP} with \`q\` (\`totalCapped\`); pages beyond the counted matches are refused (400).`,
  tags,
  access: 'admin',
  responses: { 200: json(peoplePageSchema, 'One page of accounts.') },
  errors: [503],
})

export const describeGetPerson = describe({
  operationId: 'getPerson',
  summary: 'One account: profile, sign-in methods, learner profile, sessions',
  tags,
  access: 'admin',
  responses: { 200: person },
  errors: [404, 503],
})

export const describeSetRole = describe({
  operationId: 'setPersonRole',
  summary: 'Make an administrator, or remove the role',
  description: 'Not your own role (403); the last administrator keeps the role (409). Audited; the person is emailed.',
  tags,
  access: 'admin',
  responses: { 200: person },
  errors: [404, 409, 503],
})

export const describeDisable = describe({
  operationId: 'disablePerson',
  summary: 'Disable an account',
  description:
    'Every session ends at once on every instance, and every way of signing in is refused ("This account is disabled", 403 `account_disabled`). Not your own account (403). Audited; the person is emailed.',
  tags,
  access: 'admin',
  responses: { 200: person },
  errors: [404, 409, 503],
})

export const describeEnable = describe({
  operationId: 'enablePerson',
  summary: 'Enable a disabled account',
  description: 'Signing in works again. Audited; the person is emailed.',
  tags,
  access: 'admin',
  responses: { 200: person },
  errors: [404, 503],
})

export const describeSignOut = describe({
  operationId: 'signOutPerson',
  summary: 'Sign out all sessions of an account',
  description: 'On every instance, at once. Not your own sessions (403: the account page signs you out). Audited; the person is emailed.',
  tags,
  access: 'admin',
  responses: done,
  errors: [404, 503],
})

export const describeRevokeSession = describe({
  operationId: 'revokePersonSession',
  summary: 'Sign out one session of an account',
  description: 'By the session id of `GET /api/admin/users/{id}`. Not one of your own sessions (403: the account page does that). Audited; the person is emailed.',
  tags,
  access: 'admin',
  responses: done,
  errors: [404, 503],
})

export const describeResend = describe({
  operationId: 'resendPersonConfirmation',
  summary: 'Send the confirmation email again',
  description: 'Only for an unconfirmed account (409 otherwise); one email per address per minute (429). Audited.',
  tags,
  access: 'admin',
  responses: done,
  errors: [404, 409, 429, 503],
})

export const describeDelete = describe({
  operationId: 'deletePerson',
  summary: 'Delete an account',
  description:
    'The body repeats the account\'s email (400 otherwise). Not your own account (403); the last administrator stays (409). Everything the account holds goes with it. Audited; the person is emailed.',
  tags,
  access: 'admin',
  responses: done,
  errors: [404, 409, 503],
})
