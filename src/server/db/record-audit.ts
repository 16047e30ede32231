import type { AuditAction } from '@/shared/audit-log'
import type { Db } from './client'
import { auditLog } from './schema'

/** Who made a change: a signed-in user, or null for the command line and automatic grants. */
export type AuditActor = { id: string; email: string } | null

export interface AuditRecord {
  action: AuditAction
  targetType: 'language_level' | 'language_levels' | 'user'
  targetId: string | null
  before: unknown
  after: unknown
}

/**
 * Writes one row of the audit log. Pass the transaction of the change itself, so that a change
 * that fails (and rolls back) leaves no row, and a change that commits always has its row.
 */
export async function recordAudit(db: Db, actor: AuditActor, record: AuditRecord): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor?.id ?? null,
    actorEmail: actor?.email ?? null,
    ...record,
  })
}
