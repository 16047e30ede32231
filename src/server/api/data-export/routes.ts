import { and, asc, eq, gt, or, sql } from 'drizzle-orm'
import { Hono, type MiddlewareHandler } from 'hono'
import { stream } from 'hono/streaming'
import type { AuditAction } from '@/shared/audit-log'
import { roleOf } from '@/shared/roles'
import { assessmentsOf } from '@/server/api/assessment/store'
import { PASSWORD_PROVIDER, readSignInRows } from '@/server/auth/sign-in-methods'
import type { Db } from '@/server/db/client'
import {
  auditLog,
  languageLevel,
  learnerProfile,
  session,
  user,
} from '@/server/db/schema'
import type { AppEnv } from '@/server/http/context'
import { ApiError } from '@/server/http/errors'
import { requireUser, signedInUser } from '@/server/auth/session'
import { exportedDeckCards, exportedDecks } from '@/server/api/decks/data-export'
import { exportedPractice, exportedReviews } from '@/server/api/practice/export'
import { type DataExport, EXPORT_FORMAT, describeExport } from './docs'

/** Copies per account: enough to try again, not a way to load the database. */
export const DATA_EXPORTS = { points: 5, seconds: 3600 }
/** Audit entries are read and written in pages of this many. */
const AUDIT_BATCH = 500

const iso = (date: Date) => date.toISOString()
const isoOrNull = (date: Date | null) => date?.toISOString() ?? null

/**
 * `/api/me/export` (behind `readSession`): the answer to a data-access request (docs/security.md),
 * for the signed-in person. `limit` counts copies per account.
 */
export function dataExportRoutes(db: Db, limit: MiddlewareHandler<AppEnv>) {
  return new Hono<AppEnv>().get('/', describeExport, requireUser, limit, async (c) => {
    const { id } = signedInUser(c)
    // Read before the first byte is sent: a failure here is still an answer in the error shape.
    const head = await readAccountData(db, id)
    if (!head) throw new ApiError('unauthenticated', 'Sign in first.')
    const day = new Date().toISOString().slice(0, 10)
    c.header('Content-Type', 'application/json; charset=utf-8')
    c.header('Content-Disposition', `attachment; filename="lingua-data-${day}.json"`)
    return stream(c, async (out) => {
      // Everything but the long lists, then those page by page: the file can be long.
      await out.write(JSON.stringify(head, null, 2).replace(/\n}$/, ''))
      const lists: [string, AsyncGenerator<unknown[]>][] = [
        ['auditEntries', auditEntriesOf(db, id)],
        ['deckCards', exportedDeckCards(db, id)],
        ['practiceReviews', exportedReviews(db, id)],
      ]
      for (const [name, pages] of lists) {
        await out.write(`,\n  ${JSON.stringify(name)}: [`)
        let first = true
        for await (const items of pages) {
          for (const item of items) {
            await out.write(`${first ? '' : ','}\n    ${JSON.stringify(item)}`)
            first = false
          }
        }
        await out.write(`${first ? '' : '\n  '}]`)
      }
      await out.write('\n}\n')
    }, (error) => {
      // The status is sent: the file ends short, and the reason is logged.
      c.var.logger().error({ err: error }, 'data export failed while streaming')
      return Promise.resolve()
    })
  })
}

/** The account and what hangs off it, without a single secret. `undefined` if it is gone. */
async function readAccountData(db: Db, userId: string): Promise<Omit<DataExport, 'auditEntries' | 'practiceReviews' | 'deckCards'> | undefined> {
  const [person] = await db.select().from(user).where(eq(user.id, userId))
  if (!person) return undefined
  const [{ accounts, passkeys }, sessions, [profile], assessments, practice, decks] = await Promise.all([
    readSignInRows(db, userId),
    db
      .select({
        id: session.id,
        createdAt: session.createdAt,
        lastActiveAt: session.updatedAt,
        expiresAt: session.expiresAt,
        ipAddress: session.ipAddress,
        userAgent: session.userAgent,
      })
      .from(session)
      .where(eq(session.userId, userId))
      .orderBy(asc(session.createdAt)),
    db
      .select({
        language: learnerProfile.language,
        currentLevel: sql<string | null>`(select code from ${languageLevel} where id = ${learnerProfile.currentLevelId})`,
        targetLevel: sql<string | null>`(select code from ${languageLevel} where id = ${learnerProfile.targetLevelId})`,
        updatedAt: learnerProfile.updatedAt,
      })
      .from(learnerProfile)
      .where(eq(learnerProfile.userId, userId)),
    assessmentsOf(db, userId),
    exportedPractice(db, userId),
    exportedDecks(db, userId),
  ])
  return {
    format: EXPORT_FORMAT,
    exportedAt: new Date().toISOString(),
    account: {
      id: person.id,
      name: person.name,
      email: person.email,
      emailConfirmed: person.emailVerified,
      role: roleOf(person.role),
      disabled: person.banned === true,
      twoStepVerification: person.twoFactorEnabled === true,
      createdAt: iso(person.createdAt),
      updatedAt: iso(person.updatedAt),
      lastSignInAt: isoOrNull(person.lastSignInAt),
      lastActiveAt: isoOrNull(person.lastActiveAt),
    },
    // The URL of the uploaded picture (256 px), or of a link set before uploads; null for none.
    picture: person.image,
    signInMethods: {
      password: accounts.some((row) => row.providerId === PASSWORD_PROVIDER),
      // Every linked identity, its provider still configured or not.
      providers: accounts
        .filter((row) => row.providerId !== PASSWORD_PROVIDER)
        .map((row) => ({ provider: row.providerId, accountId: row.accountId, scope: row.scope, linkedAt: iso(row.createdAt) })),
      passkeys: passkeys.map((row) => ({ ...row, createdAt: isoOrNull(row.createdAt), lastUsedAt: isoOrNull(row.lastUsedAt) })),
    },
    sessions: sessions.map((row) => ({
      ...row,
      createdAt: iso(row.createdAt),
      lastActiveAt: iso(row.lastActiveAt),
      expiresAt: iso(row.expiresAt),
    })),
    learnerProfile: profile ? { ...profile, updatedAt: iso(profile.updatedAt) } : null,
    assessments,
    practice,
    ...decks,
  }
}

/** The audit entries the person made, or that name them (their id before or after), oldest first. */
async function* auditEntriesOf(db: Db, userId: string): AsyncGenerator<DataExport['auditEntries']> {
  const aboutThem = or(
    eq(auditLog.actorId, userId),
    and(
      eq(auditLog.targetType, 'user'),
      or(sql`${auditLog.before}->>'id' = ${userId}`, sql`${auditLog.after}->>'id' = ${userId}`),
    ),
  )
  let after = 0
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(aboutThem, gt(auditLog.id, after)))
      .orderBy(asc(auditLog.id))
      .limit(AUDIT_BATCH)
    if (rows.length === 0) return
    // Only the app writes the action, from auditActions. The actor by role only (docs.ts).
    yield rows.map(({ actorId, actorEmail, ...row }) => ({
      ...row,
      actor: actorId === userId ? 'you' : actorId !== null || actorEmail !== null ? 'administrator' : 'system',
      action: row.action as AuditAction,
      at: row.at.toISOString(),
    }))
    after = rows.at(-1)?.id ?? after
    if (rows.length < AUDIT_BATCH) return
  }
}
