import { z } from 'zod/mini'
import { positiveIntParam } from './query'

/**
 * Every change the audit log records (docs/product.md §4): administrative ones, and changes to an
 * account's ways of signing in.
 */
export const auditActions = [
  'level.create',
  'level.update',
  'level.delete',
  'level.reorder',
  'can-do.create',
  'can-do.update',
  'can-do.delete',
  'can-do.reorder',
  'can-do.import',
  'word.create',
  'word.update',
  'word.delete',
  'word.import',
  'role.grant',
  'role.revoke',
  'user.disable',
  'user.enable',
  'user.sign-out',
  'user.session-revoke',
  'user.confirmation-resend',
  'user.delete',
  'sign-in-method.link',
  'sign-in-method.unlink',
  'passkey.add',
  'passkey.rename',
  'passkey.remove',
] as const
export type AuditAction = (typeof auditActions)[number]

export interface AuditEntry {
  id: number
  /** Who did it: the user's id and email at the time; null for the command line. */
  actorId: string | null
  actorEmail: string | null
  action: AuditAction
  /** What it was done to, e.g. `language_level` and its id, or `user` and an email. */
  targetType: string
  targetId: string | null
  before: unknown
  after: unknown
  at: string
}

export interface AuditPage {
  items: AuditEntry[]
  total: number
  page: number
  pageSize: number
}

const AUDIT_PAGE_SIZE_MAX = 100

export const auditListQuerySchema = z.object({
  page: z._default(positiveIntParam(100_000), 1),
  pageSize: z._default(positiveIntParam(AUDIT_PAGE_SIZE_MAX), 50),
})
