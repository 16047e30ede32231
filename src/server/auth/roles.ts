import { eq, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Db } from '../db/client.js'
import { user } from '../db/schema.js'

export type Role = 'user' | 'admin'

/** Serializes "is there an admin yet?" so two first users cannot both become admin. */
const ADMIN_LOCK_KEY = 0x6c696e6775610001n

/**
 * Who becomes admin when an email is verified: the addresses of ADMIN_EMAILS; with ADMIN_EMAILS
 * unset, the first user to verify while no admin exists. Returns the reason when it granted.
 */
export async function grantAdminOnVerification(
  db: Db,
  logger: Logger,
  adminEmails: readonly string[] | undefined,
  account: { id: string; email: string; role?: string | null },
): Promise<'admin-emails' | 'first-user' | undefined> {
  if (account.role === 'admin') return undefined
  if (adminEmails) {
    if (!adminEmails.includes(account.email.toLowerCase())) return undefined
    await setRole(db, account.id, 'admin')
    logger.info({ userId: account.id, email: account.email }, 'admin granted: listed in ADMIN_EMAILS')
    return 'admin-emails'
  }
  const granted = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_LOCK_KEY.toString()})`)
    const [existing] = await tx.select({ id: user.id }).from(user).where(eq(user.role, 'admin')).limit(1)
    if (existing) return false
    await tx.update(user).set({ role: 'admin' }).where(eq(user.id, account.id))
    return true
  })
  if (!granted) return undefined
  logger.info(
    { userId: account.id, email: account.email },
    'admin granted: first user to verify an email, ADMIN_EMAILS unset',
  )
  return 'first-user'
}

export async function setRole(db: Db, userId: string, role: Role): Promise<void> {
  await db.update(user).set({ role, updatedAt: new Date() }).where(eq(user.id, userId))
}

/** For the CLI: the role of an account by email; false when there is no such account. */
export async function setRoleByEmail(db: Db, email: string, role: Role): Promise<boolean> {
  const updated = await db
    .update(user)
    .set({ role, updatedAt: new Date() })
    .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()))
    .returning({ id: user.id })
  return updated.length > 0
}

export async function listAdmins(db: Db) {
  return db
    .select({ email: user.email, name: user.name, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.role, 'admin'))
    .orderBy(user.email)
}
