import { type SQL, and, asc, count, desc, eq, gt, inArray, sql } from 'drizzle-orm'
import {
  PEOPLE_SUBSTRING_MIN,
  type PeoplePage,
  type PeopleQuery,
  type PeopleSortKey,
  type PersonDetail,
  type PersonRow,
  peopleCountCap,
} from '@/shared/people'
import { roleOf } from '@/shared/roles'
import { latestResult } from '@/server/api/assessment/store'
import { accountNotFound } from '@/server/auth/access'
import { PASSWORD_PROVIDER, readSignInRows } from '@/server/auth/sign-in-methods'
import type { Config } from '@/server/config'
import type { Db } from '@/server/db/client'
import { languageLevel, learnerProfile, session, user } from '@/server/db/schema'
import { ApiError } from '@/server/http/errors'

/**
 * The people table's reads, fast at a million accounts (bench/admin.mjs measures them):
 * - search: a prefix of the name or the email below PEOPLE_SUBSTRING_MIN characters (btree
 *   pattern indexes), a substring from there on (trigram indexes); case-insensitive;
 * - filters on role, confirmed, two-step and disabled (partial indexes for the rare values);
 * - each sort walks an index of its key and the id (ties broken by id, so pages never overlap);
 * - the page's ids are found first (an index-only walk over the offset), then their rows joined;
 * - counts stop at `peopleCountCap` (lower for a search, whose count reads rows), and pages beyond
 *   it are not served (400): a million rows are not counted or skipped per request.
 */

/** `\`, `%` and `_` match themselves in a LIKE pattern. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`)

function conditions(query: PeopleQuery): SQL | undefined {
  const where: (SQL | undefined)[] = []
  const q = query.q?.toLowerCase()
  if (q) {
    const pattern = q.length >= PEOPLE_SUBSTRING_MIN ? `%${escapeLike(q)}%` : `${escapeLike(q)}%`
    where.push(sql`(lower(${user.name}) like ${pattern} or lower(${user.email}) like ${pattern})`)
  }
  if (query.role === 'admin') where.push(eq(user.role, 'admin'))
  if (query.role === 'user') where.push(sql`${user.role} is distinct from 'admin'`)
  if (query.confirmed) where.push(query.confirmed === 'yes' ? eq(user.emailVerified, true) : eq(user.emailVerified, false))
  if (query.mfa) where.push(query.mfa === 'yes' ? sql`${user.twoFactorEnabled} is true` : sql`${user.twoFactorEnabled} is not true`)
  // `banned` as the partial index user_disabled_idx says it (`is true` would not use it).
  if (query.disabled) where.push(query.disabled === 'yes' ? sql`${user.banned}` : sql`${user.banned} is not true`)
  return and(...where)
}

/** ORDER BY of a sort, matching the indexes of migration 0005 (the id breaks ties). */
function orderBy(sort: PeopleQuery['sort']): SQL[] {
  const descending = sort.startsWith('-')
  const key = (descending ? sort.slice(1) : sort) as PeopleSortKey
  const direction = descending ? desc : asc
  switch (key) {
    case 'name':
      return [direction(sql`lower(${user.name})`), direction(user.id)]
    case 'email':
      return [direction(user.email), direction(user.id)]
    case 'createdAt':
      return [direction(user.createdAt), direction(user.id)]
    case 'lastSignInAt':
      // Most recent first, accounts that never signed in last (and first when ascending): the
      // index's own order read forwards or backwards.
      return descending
        ? [sql`${user.lastSignInAt} desc nulls last`, desc(user.id)]
        : [sql`${user.lastSignInAt} asc nulls first`, asc(user.id)]
  }
}

const rowColumns = {
  id: user.id,
  name: user.name,
  email: user.email,
  image: user.image,
  role: user.role,
  emailVerified: user.emailVerified,
  twoFactorEnabled: user.twoFactorEnabled,
  banned: user.banned,
  createdAt: user.createdAt,
  lastSignInAt: user.lastSignInAt,
}

function toPersonRow(row: {
  id: string
  name: string
  email: string
  image: string | null
  role: string | null
  emailVerified: boolean
  twoFactorEnabled: boolean | null
  banned: boolean | null
  createdAt: Date
  lastSignInAt: Date | null
}): PersonRow {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    image: row.image,
    role: roleOf(row.role),
    emailVerified: row.emailVerified,
    twoFactorEnabled: row.twoFactorEnabled === true,
    disabled: row.banned === true,
    createdAt: row.createdAt.toISOString(),
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
  }
}

export async function listPeople(db: Db, query: PeopleQuery): Promise<PeoplePage> {
  const offset = (query.page - 1) * query.pageSize
  const cap = peopleCountCap(query)
  if (offset >= cap) {
    throw ApiError.validation(
      { issues: [{ path: ['page'], message: `Only the first ${cap} matches are listed: narrow the search or reverse the sort.` }] },
      'The query string is not valid.',
    )
  }
  const where = conditions(query)
  const order = orderBy(query.sort)
  const pageIds = db.select({ id: user.id }).from(user).where(where).orderBy(...order).limit(query.pageSize).offset(offset).as('page_ids')
  const [rows, [counted]] = await Promise.all([
    db.select(rowColumns).from(pageIds).innerJoin(user, eq(user.id, pageIds.id)).orderBy(...order),
    db.select({ total: count() }).from(db.select({ id: user.id }).from(user).where(where).limit(cap + 1).as('capped')),
  ])
  const total = Math.min(counted?.total ?? 0, cap)
  return {
    items: rows.map(toPersonRow),
    total,
    totalCapped: (counted?.total ?? 0) > cap,
    page: query.page,
    pageSize: query.pageSize,
  }
}

export async function findPerson(db: Db, providers: Config['providers'], id: string): Promise<PersonDetail> {
  const [found] = await db
    .select({ ...rowColumns, lastActiveAt: user.lastActiveAt })
    .from(user)
    .where(eq(user.id, id))
  if (!found) throw accountNotFound()
  const current = { id: languageLevel.id, code: languageLevel.code, name: languageLevel.name }
  const [{ accounts, passkeys }, profiles, sessions, latestAssessment] = await Promise.all([
    readSignInRows(db, id),
    db
      .select({
        language: learnerProfile.language,
        currentLevelId: learnerProfile.currentLevelId,
        targetLevelId: learnerProfile.targetLevelId,
      })
      .from(learnerProfile)
      .where(eq(learnerProfile.userId, id)),
    db
      .select({
        id: session.id,
        userAgent: session.userAgent,
        ipAddress: session.ipAddress,
        createdAt: session.createdAt,
        updatedAt: session.updatedAt,
        expiresAt: session.expiresAt,
      })
      .from(session)
      .where(and(eq(session.userId, id), gt(session.expiresAt, new Date())))
      .orderBy(desc(session.updatedAt)),
    latestResult(db, id),
  ])
  const profile = profiles[0]
  const levelIds = [profile?.currentLevelId, profile?.targetLevelId].filter((levelId): levelId is number => typeof levelId === 'number')
  const levels = levelIds.length
    ? await db.select(current).from(languageLevel).where(inArray(languageLevel.id, levelIds))
    : []
  const level = (levelId: number | null | undefined) => levels.find((row) => row.id === levelId) ?? null
  const providerName = (providerId: string) => providers.find((provider) => provider.id === providerId)?.name ?? providerId
  return {
    ...toPersonRow(found),
    lastActiveAt: found.lastActiveAt?.toISOString() ?? null,
    signInMethods: [
      ...accounts.map((row) =>
        row.providerId === PASSWORD_PROVIDER
          ? { kind: 'password' as const, id: 'credential', name: 'Password', addedAt: row.createdAt.toISOString() }
          : { kind: 'provider' as const, id: row.providerId, name: providerName(row.providerId), addedAt: row.createdAt.toISOString() },
      ),
      ...passkeys.map((row) => ({ kind: 'passkey' as const, id: row.id, name: row.name ?? 'Passkey', addedAt: row.createdAt?.toISOString() ?? null })),
    ],
    learner: profile
      ? { language: profile.language, currentLevel: level(profile.currentLevelId), targetLevel: level(profile.targetLevelId) }
      : null,
    sessions: sessions.map((row) => ({
      id: row.id,
      userAgent: row.userAgent,
      ipAddress: row.ipAddress,
      createdAt: row.createdAt.toISOString(),
      lastActiveAt: row.updatedAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    })),
    latestAssessment,
  }
}
