import { eq } from 'drizzle-orm'
import type { AuditAction } from '@/shared/audit-log'
import type { Db } from '@/server/db/client'
import { auditLog, user } from '@/server/db/schema'
import { publishEvent } from '@/server/events/bus'

/**
 * Who made a change: a signed-in user, or null for the command line and automatic grants. A person
 * who deleted their own account is named by email only (`id` null: the account is gone).
 */
export type AuditActor = { id: string | null; email: string } | null

export interface AuditRecord {
  action: AuditAction
  targetType: 'language_level' | 'language_levels' | 'can_do_statement' | 'can_do_statements' | 'user' | 'word'
  targetId: string | null
  before: unknown
  after: unknown
}

/**
 * Writes one row of the audit log, and tells the administrators' open screens about it
 * (events/bus.ts). Pass the transaction of the change itself, so that a change that fails (and
 * rolls back) leaves no row, and a change that commits always has its row; the last statements
 * of that transaction but for other events (see publishEvent).
 */
export async function recordAudit(db: Db, actor: AuditActor, record: AuditRecord): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(auditLog)
      .values({ actorId: actor?.id ?? null, actorEmail: actor?.email ?? null, ...record })
      .returning({ id: auditLog.id })
    const [named] = actor?.id ? await tx.select({ name: user.name }).from(user).where(eq(user.id, actor.id)) : []
    await publishEvent(tx, {
      type: 'audit',
      data: {
        id: row?.id ?? 0,
        action: record.action,
        targetType: record.targetType,
        targetId: record.targetId,
        actorId: actor?.id ?? null,
        actorName: named?.name ?? null,
      },
    })
  })
}
