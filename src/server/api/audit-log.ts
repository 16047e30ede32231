import { count as countRows, desc } from 'drizzle-orm'
import { Hono, type MiddlewareHandler } from 'hono'
import { z } from 'zod/mini'
import {
  type AuditAction,
  type AuditEntry,
  type AuditPage,
  auditActions,
  auditListQuerySchema,
} from '@/shared/audit-log'
import type { Db } from '@/server/db/client'
import { auditLog } from '@/server/db/schema'
import { queryParams } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { requireAdmin } from '@/server/auth/session'
import { describe, json } from '@/server/openapi/describe'
import { answer, anyJson, count, isoDateTime, positiveInt } from '@/server/openapi/schemas'

/** What a change was, when and to what; who made it is added by each view of the log. */
export const auditChange = {
  id: positiveInt,
  action: z.enum(auditActions),
  targetType: z.string(),
  targetId: z.nullable(z.string()),
  before: anyJson,
  after: anyJson,
  at: isoDateTime,
}

const auditEntrySchema = answer<AuditEntry>(
  'AuditEntry',
  'One administrative change; the actor is null for the command line.',
)(z.object({ ...auditChange, actorId: z.nullable(z.string()), actorEmail: z.nullable(z.string()) }))

const auditPageSchema = answer<AuditPage>('AuditPage', 'One page of the audit log, newest first.')(
  z.object({ items: z.array(auditEntrySchema), total: count, page: positiveInt, pageSize: positiveInt }),
)

/** `/api/audit-log`: the administrative changes, newest first (administrators only). */
export function auditRoutes(db: Db, session: MiddlewareHandler<AppEnv>) {
  return new Hono<AppEnv>().get(
    '/',
    describe({
      operationId: 'listAuditLog',
      summary: 'The administrative changes, newest first',
      tags: ['Audit log'],
      access: 'admin',
      responses: { 200: json(auditPageSchema, 'One page of the log.') },
      errors: [503],
    }),
    session,
    requireAdmin(db),
    queryParams(auditListQuerySchema),
    async (c) => {
      return c.json(await listAudit(db, c.req.valid('query')))
    },
  )
}

async function listAudit(
  db: Db,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<AuditPage> {
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: countRows() }).from(auditLog),
  ])
  return { items: rows.map(toAuditEntry), total: counted?.total ?? 0, page, pageSize }
}

function toAuditEntry(row: typeof auditLog.$inferSelect): AuditEntry {
  return {
    id: row.id,
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    // Written only by recordAudit, whose type allows nothing else.
    action: row.action as AuditAction,
    targetType: row.targetType,
    targetId: row.targetId,
    before: row.before,
    after: row.after,
    at: row.at.toISOString(),
  }
}
