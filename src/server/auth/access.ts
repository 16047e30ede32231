import { and, eq, ne, sql } from 'drizzle-orm'
import type { Role } from '@/shared/roles'
import { roleOf } from '@/shared/roles'
import type { AuditAction } from '@/shared/audit-log'
import { type AuditActor, recordAudit } from '@/server/audit/record'
import type { Db } from '@/server/db/client'
import { adminMilestone, user } from '@/server/db/schema'
import { publishEvent } from '@/server/events/bus'
import { ApiError } from '@/server/http/errors'

/**
 * Who may sign in and what they may do: roles and disabled accounts. The one path of every such
 * change — the admin API (api/admin), the command line and the automatic grants — so that each is
 * checked by the same rules, recorded in the audit log in its own transaction, and announced to
 * every instance (events/bus.ts) when it commits:
 * - nobody demotes, disables or deletes themselves;
 * - an administrator stays: the last one who is not disabled keeps the role (409);
 * - an acting administrator must still be one, not disabled, when the change is made;
 * - once any account has been an administrator, nobody becomes one by verifying an email
 *   (`admin_milestone`), whatever happens to the administrators later.
 * All of it under one advisory lock: two administrators demoting each other at once leave one.
 */

/** Serializes changes of roles and access ("is there an admin yet?", "is this the last one?"). */
const ACCESS_LOCK_KEY = 0x6c696e6775610001n

/** Takes the lock for the rest of the transaction `tx`. */
async function lockAccess(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ACCESS_LOCK_KEY.toString()})`)
}

/** An acting administrator; `null` for the command line and automatic grants. */
export type Actor = { id: string; email: string } | null

export interface AccountState {
  id: string
  email: string
  name: string
  role: Role
  disabled: boolean
  emailVerified: boolean
}

export const accountNotFound = () => new ApiError('not_found', 'Account not found.')

const selectState = { id: user.id, email: user.email, name: user.name, role: user.role, banned: user.banned, emailVerified: user.emailVerified }

function stateOf(row: { id: string; email: string; name: string; role: string | null; banned: boolean | null; emailVerified: boolean }): AccountState {
  return { id: row.id, email: row.email, name: row.name, role: roleOf(row.role), disabled: row.banned === true, emailVerified: row.emailVerified }
}

/** The account, locked for the transaction; 404 when there is none. */
async function lockedAccount(tx: Db, id: string): Promise<AccountState> {
  const [row] = await tx.select(selectState).from(user).where(eq(user.id, id)).for('update')
  if (!row) throw accountNotFound()
  return stateOf(row)
}

/**
 * The acting administrator does not act on themselves, and must still be one, not disabled (a
 * concurrent change may have demoted them): checked once `beforeActing` (the rules of the change)
 * passed, so that of two administrators demoting each other, the second is told why (409).
 */
async function checkActor(
  tx: Db,
  actor: Actor,
  target: AccountState,
  refusal: string,
  beforeActing: () => Promise<void> = async () => {},
): Promise<void> {
  if (actor?.id === target.id) throw new ApiError('forbidden', refusal)
  await beforeActing()
  if (!actor) return
  const [row] = await tx.select(selectState).from(user).where(eq(user.id, actor.id))
  const current = row && stateOf(row)
  if (current?.role !== 'admin' || current.disabled) throw new ApiError('forbidden', 'Administrators only.')
}

/** 409 unless an administrator who is not disabled remains besides `target`. */
async function checkAnotherAdmin(tx: Db, target: AccountState): Promise<void> {
  if (target.role !== 'admin') return
  const [other] = await tx
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.role, 'admin'), ne(user.id, target.id), sql`${user.banned} is not true`))
    .limit(1)
  if (!other) {
    throw new ApiError('conflict', 'The last administrator keeps the role: make someone else an administrator first.')
  }
}

/** Remembers for good that the database has had an administrator (see `adminMilestone`). */
async function rememberAnAdmin(tx: Db): Promise<void> {
  await tx.insert(adminMilestone).values({ id: 1 }).onConflictDoNothing()
}

/**
 * Records the change and tells every instance (and the person's open screens) that the account's
 * access is now `now`: their cached sessions are stale. The last statements of the transaction
 * (see publishEvent). The access event goes first: streams hear the change of role before the
 * audit row of it, so that row is judged by the role the person has once it is delivered — a
 * demoted administrator does not hear their own demotion's row (events/hub.ts).
 */
async function recorded(
  tx: Db,
  actor: AuditActor,
  action: AuditAction,
  target: AccountState,
  change: { before: object; after: object; now: { role: Role; disabled: boolean } },
) {
  await publishEvent(tx, { type: 'account', userId: target.id, data: { reason: 'access', ...change.now } })
  await recordAudit(tx, actor, {
    action,
    targetType: 'user',
    targetId: target.email,
    before: { id: target.id, email: target.email, ...change.before },
    after: { id: target.id, email: target.email, ...change.after },
  })
}

/**
 * Sets the role; `changed` is false when the account already had it (nothing is recorded). The
 * sessions of the account see the new role at once (their cached copies are not trusted).
 */
export async function setRole(db: Db, actor: Actor, id: string, role: Role): Promise<{ account: AccountState; changed: boolean }> {
  return db.transaction(async (tx) => {
    await lockAccess(tx)
    const target = await lockedAccount(tx, id)
    if (target.role === role) return { account: target, changed: false }
    await checkActor(tx, actor, target, 'You cannot remove your own administrator role.', async () => {
      if (role !== 'admin') await checkAnotherAdmin(tx, target)
    })
    await tx.update(user).set({ role, updatedAt: new Date() }).where(eq(user.id, id))
    if (role === 'admin') await rememberAnAdmin(tx)
    await recorded(tx, actor, role === 'admin' ? 'role.grant' : 'role.revoke', target, {
      before: { role: target.role },
      after: { role },
      now: { role, disabled: target.disabled },
    })
    return { account: { ...target, role }, changed: true }
  })
}

/**
 * Disables or enables the account. Disabled: better-auth's admin plugin refuses its every new
 * session ("This account is disabled"); the caller ends the sessions it has (`endSessions`).
 */
export async function setDisabled(db: Db, actor: Actor, id: string, disabled: boolean): Promise<{ account: AccountState; changed: boolean }> {
  return db.transaction(async (tx) => {
    await lockAccess(tx)
    const target = await lockedAccount(tx, id)
    if (target.disabled === disabled) return { account: target, changed: false }
    await checkActor(tx, actor, target, 'You cannot disable your own account.', async () => {
      if (disabled) await checkAnotherAdmin(tx, target)
    })
    await tx
      .update(user)
      .set({ banned: disabled, banReason: disabled ? 'Disabled by an administrator' : null, banExpires: null, updatedAt: new Date() })
      .where(eq(user.id, id))
    await recorded(tx, actor, disabled ? 'user.disable' : 'user.enable', target, {
      before: { disabled: target.disabled },
      after: { disabled },
      now: { role: target.role, disabled },
    })
    return { account: { ...target, disabled }, changed: true }
  })
}

/**
 * Deletes the account (its sessions, sign-in methods and learner profile go with it: foreign keys
 * cascade). `typedEmail` must be its email (400 otherwise).
 */
export async function deleteAccount(db: Db, actor: Actor, id: string, typedEmail: string): Promise<AccountState> {
  return db.transaction(async (tx) => {
    await lockAccess(tx)
    const target = await lockedAccount(tx, id)
    await checkActor(tx, actor, target, 'You cannot delete your own account here: use your account page.', async () => {
      if (typedEmail.trim().toLowerCase() !== target.email.toLowerCase()) {
        throw ApiError.validation({ issues: [{ path: ['email'], message: 'Type the email of the account to delete.' }] })
      }
      await checkAnotherAdmin(tx, target)
    })
    await tx.delete(user).where(eq(user.id, id))
    // A deleted account has no access left: its streams end like a disabled one's.
    await recorded(tx, actor, 'user.delete', target, {
      before: { role: target.role, disabled: target.disabled, emailVerified: target.emailVerified },
      after: { deleted: true },
      now: { role: target.role, disabled: true },
    })
    return target
  })
}

/**
 * Before better-auth deletes the signed-in person's own account (`POST /api/auth/delete-user`):
 * the last administrator who is not disabled keeps the role (409, as when demoting). An
 * administrator who may go steps down from the role here, under the lock, so that two
 * administrators deleting themselves at once leave one. Returns the state to record once the
 * account is gone (`recordOwnDeletion`).
 */
export async function prepareOwnDeletion(db: Db, id: string): Promise<AccountState> {
  return db.transaction(async (tx) => {
    await lockAccess(tx)
    const target = await lockedAccount(tx, id)
    await checkAnotherAdmin(tx, target)
    if (target.role === 'admin') await tx.update(user).set({ role: 'user', updatedAt: new Date() }).where(eq(user.id, id))
    return target
  })
}

/** Records a deletion the person made themselves (their id is gone: the email names them). */
export async function recordOwnDeletion(db: Db, target: AccountState): Promise<void> {
  await db.transaction((tx) =>
    recorded(tx, { id: null, email: target.email }, 'user.delete', target, {
      before: { role: target.role, disabled: target.disabled, emailVerified: target.emailVerified },
      after: { deleted: true },
      now: { role: target.role, disabled: true },
    }),
  )
}

/** Records an action on the account's sessions or emails, made by `actor` (after the fact). */
export async function recordAccountAction(
  db: Db,
  actor: Actor,
  action: 'user.sign-out' | 'user.session-revoke' | 'user.confirmation-resend',
  target: AccountState,
  detail: object = {},
): Promise<void> {
  await db.transaction((tx) =>
    recorded(tx, actor, action, target, { before: {}, after: detail, now: { role: target.role, disabled: target.disabled } }),
  )
}

/**
 * Makes the account an administrator if the database has never had one (the first to verify an
 * email while ADMIN_EMAILS is unset); false once there has been one, even if none is left: then
 * the command line grants the role (docs/operations.md).
 */
export async function grantFirstAdmin(db: Db, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockAccess(tx)
    const [had] = await tx.select({ id: adminMilestone.id }).from(adminMilestone).limit(1)
    const [existing] = await tx.select({ id: user.id }).from(user).where(eq(user.role, 'admin')).limit(1)
    if (had || existing) return false
    const target = await lockedAccount(tx, id)
    await tx.update(user).set({ role: 'admin', updatedAt: new Date() }).where(eq(user.id, id))
    await rememberAnAdmin(tx)
    await recorded(tx, null, 'role.grant', target, {
      before: { role: target.role },
      after: { role: 'admin' },
      now: { role: 'admin', disabled: target.disabled },
    })
    return true
  })
}

/** The account's state, or 404. */
export async function accountState(db: Db, id: string): Promise<AccountState> {
  const [row] = await db.select(selectState).from(user).where(eq(user.id, id))
  if (!row) throw accountNotFound()
  return stateOf(row)
}
