import { eq, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Role } from '@/shared/roles'
import { recordAudit } from '@/server/db/record-audit'
import type { Db } from '@/server/db/client'
import { user } from '@/server/db/schema'

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
    await db.transaction((tx) => changeRole(tx, account, 'admin'))
    logger.info({ userId: account.id, email: account.email }, 'admin granted: listed in ADMIN_EMAILS')
    return 'admin-emails'
  }
  const granted = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_LOCK_KEY.toString()})`)
    const [existing] = await tx.select({ id: user.id }).from(user).where(eq(user.role, 'admin')).limit(1)
    if (existing) return false
    await changeRole(tx, account, 'admin')
    return true
  })
  if (!granted) return undefined
  logger.info(
    { userId: account.id, email: account.email },
    'admin granted: first user to verify an email, ADMIN_EMAILS unset',
  )
  return 'first-user'
}

/**
 * Sets an account's role and records the grant or revoke in the audit log. Call it in a
 * transaction, so that the change and its record commit together. The actor is null: only the
 * command line and the automatic grants change roles here.
 */
async function changeRole(
  tx: Db,
  account: { id: string; email: string; role?: string | null },
  role: Role,
): Promise<void> {
  await tx.update(user).set({ role, updatedAt: new Date() }).where(eq(user.id, account.id))
  await recordAudit(tx, null, {
    action: role === 'admin' ? 'role.grant' : 'role.revoke',
    targetType: 'user',
    targetId: account.email,
    before: { role: account.role ?? 'user' },
    after: { role },
  })
}

/**
 * For the CLI: sets the role of an account by email; false when there is no such account. Setting
 * the role it already has changes nothing and records nothing.
 */
export async function setRoleByEmail(db: Db, email: string, role: Role): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [account] = await tx
      .select({ id: user.id, email: user.email, role: user.role })
      .from(user)
      .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()))
      .for('update')
    if (!account) return false
    if ((account.role ?? 'user') !== role) await changeRole(tx, account, role)
    return true
  })
}

export async function listAdmins(db: Db) {
  return db
    .select({ email: user.email, name: user.name, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.role, 'admin'))
    .orderBy(user.email)
}
