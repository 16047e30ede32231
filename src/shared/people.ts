import type { AssessmentResult } from './can-do'

/**
 * The administrators' view of people (`/admin`, `/admin/users`, `/api/admin/*`): bounds, sorts,
 * filters and the API's answer types. No zod here (`people-schemas.ts` has the schemas), so that
 * a page can use the constants without loading the validation library.
 */
import type { Role } from './roles'

/** better-auth's user ids: 32 letters and digits (`/admin/users/{id}` of another form is a 404). */
export const USER_ID_PATTERN = /^[A-Za-z0-9]{32}$/

export const PEOPLE_PAGE_SIZE_DEFAULT = 20
export const PEOPLE_PAGE_SIZE_MAX = 100
export const PEOPLE_QUERY_MAX = 100
/**
 * Counts stop here, and pages beyond it are not served: counting (or skipping) every match among a
 * million accounts costs more than the page itself. Nobody reads 50 pages: they narrow the search,
 * filter, or reverse the sort. Without a search the count walks an index (under a millisecond).
 */
export const PEOPLE_COUNT_CAP = 1_000
/**
 * The cap of a search's count. A search's count reads the user table until it has found this many
 * matches (the planner rightly prefers that to a trigram bitmap of every match), so its cost grows
 * with the cap: at 1,000 a two-letter prefix read ~12,000 rows (10 ms of the database) and a
 * Cyrillic substring ~32,000 (24 ms), and searches missed the 50 ms p95 at 8 connections with a
 * million accounts (bench/admin.mjs); at 200, a fifth. Ten pages of matches is where a person
 * types one more letter.
 */
export const PEOPLE_SEARCH_COUNT_CAP = 200

/** Where the count of the matches of `query` stops (and the pages with it). */
export const peopleCountCap = (query: { q?: string }) => (query.q ? PEOPLE_SEARCH_COUNT_CAP : PEOPLE_COUNT_CAP)

/**
 * A search shorter than this matches the start of a name or an email only; from this length on it
 * also matches inside them (a trigram index needs three characters).
 */
export const PEOPLE_SUBSTRING_MIN = 3

export const peopleSortKeys = ['name', 'email', 'createdAt', 'lastSignInAt'] as const
export type PeopleSortKey = (typeof peopleSortKeys)[number]
/** `name` sorts ascending, `-name` descending. */
export const peopleSorts = peopleSortKeys.flatMap((key) => [key, `-${key}`] as const)
export type PeopleSort = (typeof peopleSorts)[number]
export const PEOPLE_SORT_DEFAULT: PeopleSort = '-createdAt'

/** A yes/no filter of the list; absent means either. */
export const yesNo = ['yes', 'no'] as const
type YesNo = (typeof yesNo)[number]

/** `GET /api/admin/users` query, as the server reads it. */
export interface PeopleQuery {
  q?: string
  role?: Role
  confirmed?: YesNo
  mfa?: YesNo
  disabled?: YesNo
  sort: PeopleSort
  page: number
  pageSize: number
}

/** One row of the people table. */
export interface PersonRow {
  id: string
  name: string
  email: string
  image: string | null
  role: Role
  emailVerified: boolean
  twoFactorEnabled: boolean
  disabled: boolean
  createdAt: string
  lastSignInAt: string | null
}

export interface PeoplePage {
  items: PersonRow[]
  /** Matches over all pages, up to `peopleCountCap` of the query; `totalCapped` when there are more. */
  total: number
  totalCapped: boolean
  page: number
  pageSize: number
}

/** One active session of a person (no token). */
export interface PersonSession {
  id: string
  userAgent: string | null
  ipAddress: string | null
  createdAt: string
  /** When the session was last renewed (better-auth renews a used session once a day). */
  lastActiveAt: string
  expiresAt: string
}

/** `GET /api/admin/users/{id}`. */
export interface PersonDetail extends PersonRow {
  lastActiveAt: string | null
  /** `credential` (a password), a provider's id, or `passkey`; with when it was added. */
  signInMethods: { kind: 'password' | 'provider' | 'passkey'; id: string; name: string; addedAt: string | null }[]
  learner: {
    language: string | null
    currentLevel: { id: number; code: string; name: string } | null
    targetLevel: { id: number; code: string; name: string } | null
  } | null
  sessions: PersonSession[]
  /** The latest self-assessment result, if any. */
  latestAssessment: AssessmentResult | null
}

/** `GET /api/admin/overview`: the state of the user base. */
export interface Overview {
  accounts: number
  confirmed: number
  twoFactor: number
  disabled: number
  admins: number
  activeLast7Days: number
  activeLast30Days: number
  newThisWeek: number
  /** Learners per level, in level order; `none` counts profiles without one. */
  currentLevels: { levelId: number; code: string; name: string; learners: number }[]
  targetLevels: { levelId: number; code: string; name: string; learners: number }[]
  currentLevelNone: number
  targetLevelNone: number
  /**
   * "Learners by assessed level": the overall level of each learner's latest self-assessment, every
   * level in order (0 included), then codes of levels deleted since; below the first level apart.
   */
  assessedLevels: { code: string; name: string | null; learners: number }[]
  assessedBelowFirstLevel: number
  /** The last 12 weeks, oldest first; `weekStart` is a Monday (UTC, `YYYY-MM-DD`). */
  signUpsPerWeek: { weekStart: string; count: number }[]
  /** When the figures were computed (they are kept for OVERVIEW_MAX_AGE_SECONDS). */
  computedAt: string
}

/** How long the overview's figures are reused before they are computed again. */
export const OVERVIEW_MAX_AGE_SECONDS = 30
export const SIGN_UP_WEEKS = 12

