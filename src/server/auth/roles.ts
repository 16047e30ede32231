import { eq, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Role } from '@/shared/roles'
import type { Db } from '@/server/db/client'
import { user } from '@/server/db/schema'
import { grantFirstAdmin, setRole } from './access'

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
    await setRole(db, null, account.id, 'admin')
    logger.info({ userId: account.id, email: account.email }, 'admin granted: listed in ADMIN_EMAILS')
    return 'admin-emails'
  }
  if (!(await grantFirstAdmin(db, account.id))) return undefined
  logger.info(
    { userId: account.id, email: account.email },
    'admin granted: first user to verify an email, ADMIN_EMAILS unset',
  )
  return 'first-user'
}

/**
 * For the CLI: sets the role of an account by email, through the same checks as the admin API
 * (the last administrator keeps the role: ApiError 409). False when there is no such account.
 */
export async function setRoleByEmail(db: Db, email: string, role: Role): Promise<boolean> {
  const [account] = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()))
  if (!account) return false
  await setRole(db, null, account.id, role)
  return true
}

export async function listAdmins(db: Db) {
  return db
    .select({ email: user.email, name: user.name, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.role, 'admin'))
    .orderBy(user.email)
}
