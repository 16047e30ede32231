import { Hono, type MiddlewareHandler } from 'hono'
import { CAN_DO_CSV_MAX_BYTES, type CsvImportReport } from '@/shared/can-do'
import { csvImportQuerySchema } from '@/shared/csv'
import {
  statementInputSchema,
  statementListQuerySchema,
  statementOrderSchema,
  statementPatchSchema,
  statementSetQuerySchema,
} from '@/shared/can-do-schemas'
import type { Db } from '@/server/db/client'
import { jsonBody, queryParams, rowIdParam } from '@/server/http/body'
import { readCsvUpload, refusedRowsError } from '@/server/http/csv'
import type { AppEnv } from '@/server/http/context'
import { ApiError } from '@/server/http/errors'
import { requireAdmin, signedInUser } from '@/server/auth/session'
import { undocumented } from '@/server/openapi/describe'
import { checkCsv, importOrder, writeCsv } from './csv'
import {
  describeCreate,
  describeDelete,
  describeExport,
  describeImport,
  describeList,
  describeOrder,
  describePatch,
  describeSet,
} from './docs'
import {
  createStatement,
  deleteStatement,
  exportRows,
  importContext,
  importStatements,
  listStatements,
  reorderCell,
  statementNotFound,
  statementSet,
  updateStatement,
} from './store'

/** Changes of statements per administrator: a busy editing session, not a script. */
export const STATEMENT_WRITES = { points: 300, seconds: 600 }
/** Imports per administrator (dry runs included): each reads up to 5 MB. */
export const STATEMENT_IMPORTS = { points: 30, seconds: 600 }

/** `/api/can-do-statements`: what a learner is asked, public (no session read). */
export function canDoRoutes(db: Db) {
  return new Hono<AppEnv>().get('/', describeSet, queryParams(statementSetQuerySchema), async (c) => {
    const set = await statementSet(db, c.req.valid('query').lang)
    // Public data that changes (a `can-do` event says when): kept, but asked again before use.
    c.header('Cache-Control', 'no-cache')
    return c.json(set)
  })
}

/** A statement's id in a path: a positive integer column; anything else names none (404). */
const statementIdParam = rowIdParam(statementNotFound)

/**
 * `/api/admin/can-do-statements`: the administrators' reads and changes of the statements, each
 * change recorded in the audit log and announced to open screens (`can-do` events) in its own
 * transaction. `limit` counts changes per administrator, `importLimit` CSV imports.
 */
export function canDoAdminRoutes(deps: {
  db: Db
  session: MiddlewareHandler<AppEnv>
  limit: MiddlewareHandler<AppEnv>
  importLimit: MiddlewareHandler<AppEnv>
}) {
  const { db, limit, importLimit } = deps
  const admin = [deps.session, requireAdmin(db)] as const
  return (
    new Hono<AppEnv>()
      .get('/', describeList, ...admin, queryParams(statementListQuerySchema), async (c) => {
        return c.json(await listStatements(db, c.req.valid('query')))
      })
      .post('/', describeCreate, ...admin, limit, jsonBody(statementInputSchema), async (c) => {
        const statement = await createStatement(db, c.req.valid('json'), signedInUser(c))
        return c.json(statement, 201)
      })
      .put('/order', describeOrder, ...admin, limit, jsonBody(statementOrderSchema), async (c) => {
        return c.json(await reorderCell(db, c.req.valid('json'), signedInUser(c)))
      })
      .get('/csv', describeExport, ...admin, async (c) => {
        const day = new Date().toISOString().slice(0, 10)
        c.header('Content-Type', 'text/csv; charset=utf-8')
        c.header('Content-Disposition', `attachment; filename="lingua-can-do-statements-${day}.csv"`)
        return c.body(writeCsv(await exportRows(db)))
      })
      .post('/csv', describeImport, ...admin, importLimit, queryParams(csvImportQuerySchema), async (c) => {
        const text = await readCsvUpload(c, CAN_DO_CSV_MAX_BYTES)
        const dryRun = c.req.valid('query').dryRun === 'true'
        if (dryRun) {
          const checked = checkCsv(text, await importContext(db))
          return c.json({ dryRun, rows: checked.rows, created: 0, refused: checked.refused } satisfies CsvImportReport)
        }
        let rows = 0
        const created = await importStatements(
          db,
          (context) => {
            const checked = checkCsv(text, context)
            rows = checked.rows
            if (checked.refused.length > 0) throw refusedRowsError(checked.refused)
            return importOrder(checked.valid)
          },
          signedInUser(c),
        )
        return c.json({ dryRun, rows, created, refused: [] } satisfies CsvImportReport)
      })
      // `/order` and `/csv` are paths of their own, not a statement's id: 405 for their other
      // methods (app.ts answers the ones no route has).
      .on(['GET', 'PATCH', 'DELETE'], '/order', undocumented, () => {
        throw new ApiError('method_not_allowed', 'This path takes only PUT.', undefined, { Allow: 'PUT' })
      })
      .on(['PATCH', 'DELETE'], '/csv', undocumented, () => {
        throw new ApiError('method_not_allowed', 'This path takes only GET and POST.', undefined, { Allow: 'GET, HEAD, POST' })
      })
      .patch('/:id', describePatch, ...admin, limit, statementIdParam, jsonBody(statementPatchSchema), async (c) => {
        const statement = await updateStatement(db, c.req.valid('param').id, c.req.valid('json'), signedInUser(c))
        return c.json(statement)
      })
      .delete('/:id', describeDelete, ...admin, limit, statementIdParam, async (c) => {
        await deleteStatement(db, c.req.valid('param').id, signedInUser(c))
        return c.body(null, 204)
      })
  )
}
