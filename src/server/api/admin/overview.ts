import { asc, count, desc, gte, isNotNull, sql } from 'drizzle-orm'
import { OVERVIEW_MAX_AGE_SECONDS, type Overview, SIGN_UP_WEEKS } from '@/shared/people'
import type { Db } from '@/server/db/client'
import { assessment, languageLevel, learnerProfile, user } from '@/server/db/schema'

const DAY_MS = 24 * 60 * 60 * 1000

/** Monday 00:00 UTC of the week of `date`. */
function weekStart(date: Date): Date {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()))
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS)
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10)

/**
 * The figures of the user base, aggregated by PostgreSQL (no row comes into Node): one pass over
 * the accounts for the counts, one grouping of the learner profiles per level, one of the
 * sign-ups of the last SIGN_UP_WEEKS weeks per week.
 */
async function computeOverview(db: Db, now: Date): Promise<Overview> {
  const thisWeek = weekStart(now)
  const firstWeek = new Date(thisWeek.getTime() - (SIGN_UP_WEEKS - 1) * 7 * DAY_MS)
  const since = (days: number) => new Date(now.getTime() - days * DAY_MS)
  const week = sql<string>`to_char(date_trunc('week', ${user.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`
  // Each learner's latest result (DISTINCT ON walks assessment_user_finished_idx), by overall level.
  const latest = db
    .selectDistinctOn([assessment.userId], { code: assessment.overallLevelCode })
    .from(assessment)
    .where(isNotNull(assessment.finishedAt))
    .orderBy(assessment.userId, desc(assessment.finishedAt))
    .as('latest')
  const [[figures], levels, current, target, signUps, assessed] = await Promise.all([
    db
      .select({
        accounts: count(),
        confirmed: count(sql`case when ${user.emailVerified} then 1 end`),
        twoFactor: count(sql`case when ${user.twoFactorEnabled} then 1 end`),
        disabled: count(sql`case when ${user.banned} then 1 end`),
        admins: count(sql`case when ${user.role} = 'admin' then 1 end`),
        activeLast7Days: count(sql`case when ${user.lastActiveAt} >= ${since(7)} then 1 end`),
        activeLast30Days: count(sql`case when ${user.lastActiveAt} >= ${since(30)} then 1 end`),
        newThisWeek: count(sql`case when ${user.createdAt} >= ${thisWeek} then 1 end`),
      })
      .from(user),
    db
      .select({ levelId: languageLevel.id, code: languageLevel.code, name: languageLevel.name })
      .from(languageLevel)
      .orderBy(asc(languageLevel.position), asc(languageLevel.id)),
    db
      .select({ levelId: learnerProfile.currentLevelId, learners: count() })
      .from(learnerProfile)
      .where(isNotNull(learnerProfile.currentLevelId))
      .groupBy(learnerProfile.currentLevelId),
    db
      .select({ levelId: learnerProfile.targetLevelId, learners: count() })
      .from(learnerProfile)
      .where(isNotNull(learnerProfile.targetLevelId))
      .groupBy(learnerProfile.targetLevelId),
    db.select({ week, count: count() }).from(user).where(gte(user.createdAt, firstWeek)).groupBy(week),
    db.select({ code: latest.code, learners: count() }).from(latest).groupBy(latest.code),
  ])
  const accounts = figures?.accounts ?? 0
  const perLevel = (rows: { levelId: number | null; learners: number }[]) => {
    const counts = new Map(rows.map((row) => [row.levelId, row.learners]))
    return levels.map((level) => ({ ...level, learners: counts.get(level.levelId) ?? 0 }))
  }
  const currentLevels = perLevel(current)
  const targetLevels = perLevel(target)
  const sum = (rows: { learners: number }[]) => rows.reduce((total, row) => total + row.learners, 0)
  const perWeek = new Map(signUps.map((row) => [row.week, row.count]))
  return {
    accounts,
    confirmed: figures?.confirmed ?? 0,
    twoFactor: figures?.twoFactor ?? 0,
    disabled: figures?.disabled ?? 0,
    admins: figures?.admins ?? 0,
    activeLast7Days: figures?.activeLast7Days ?? 0,
    activeLast30Days: figures?.activeLast30Days ?? 0,
    newThisWeek: figures?.newThisWeek ?? 0,
    currentLevels,
    targetLevels,
    // Accounts without a level: no learner profile, or one without that level.
    currentLevelNone: Math.max(0, accounts - sum(currentLevels)),
    targetLevelNone: Math.max(0, accounts - sum(targetLevels)),
    ...assessedLevels(levels, assessed),
    signUpsPerWeek: Array.from({ length: SIGN_UP_WEEKS }, (_, i) => {
      const start = isoDay(new Date(firstWeek.getTime() + i * 7 * DAY_MS))
      return { weekStart: start, count: perWeek.get(start) ?? 0 }
    }),
    computedAt: now.toISOString(),
  }
}

/**
 * "Learners by assessed level": every level in order, then the codes of results whose level is
 * gone (a result keeps its level as text), and those below the first level apart.
 */
function assessedLevels(levels: { code: string; name: string }[], rows: { code: string | null; learners: number }[]) {
  const counts = new Map(rows.filter((row) => row.code !== null).map((row) => [row.code as string, row.learners]))
  const known = levels.map(({ code, name }) => ({ code, name: name, learners: counts.get(code) ?? 0 }))
  const gone = [...counts.keys()]
    .filter((code) => !levels.some((level) => level.code === code))
    .sort()
    .map((code) => ({ code, name: null, learners: counts.get(code) ?? 0 }))
  return {
    assessedLevels: [...known, ...gone],
    assessedBelowFirstLevel: rows.find((row) => row.code === null)?.learners ?? 0,
  }
}

/**
 * The overview, computed at most once per OVERVIEW_MAX_AGE_SECONDS per instance: a pass over a
 * million accounts takes a tenth of a second, and administrators reload the page. Requests that
 * arrive while it is computed share that computation. `invalidate` after a change an
 * administrator makes here, so that they see it at once.
 */
export function overviewCache(db: Db, maxAgeMs = OVERVIEW_MAX_AGE_SECONDS * 1000) {
  let cached: { value: Promise<Overview>; at: number } | undefined
  return {
    get(): Promise<Overview> {
      const now = Date.now()
      if (!cached || now - cached.at >= maxAgeMs) {
        const value = computeOverview(db, new Date(now))
        const entry = { value, at: now }
        cached = entry
        // A failure is not kept: the next request tries again.
        value.catch(() => {
          if (cached === entry) cached = undefined
        })
      }
      return cached.value
    },
    invalidate(): void {
      cached = undefined
    },
  }
}
