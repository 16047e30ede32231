import { Hono, type MiddlewareHandler } from 'hono'
import { WORD_CSV_MAX_BYTES } from '@/shared/words'
import { csvImportQuerySchema } from '@/shared/csv'
import { wordInputSchema, wordListQuerySchema, wordPatchSchema } from '@/shared/words-schemas'
import { requireAdmin, signedInUser } from '@/server/auth/session'
import type { Db } from '@/server/db/client'
import { jsonBody, queryParams, rowIdParam } from '@/server/http/body'
import { readCsvUpload, refusedRowsError } from '@/server/http/csv'
import type { AppEnv } from '@/server/http/context'
import { levelNotFound } from '@/server/api/levels/store'
import { describeCreate, describeDelete, describeExport, describeImport, describeList, describePatch } from './docs'
import { parseWordsFile, wordsFile } from './csv'
import { createWord, deleteWord, importWords, levelWordRows, listWords, updateWord, wordNotFound } from './store'

/** Word changes per administrator: an afternoon of editing, not a script's flood. */
export const WORD_WRITES = { points: 300, seconds: 60 }

const levelIdParam = rowIdParam(levelNotFound)
const wordIdParam = rowIdParam(wordNotFound)

/** Where the words routes live, both behind `session` and administrators only. */
export interface WordRoutes {
  /** `/api/language-levels/{id}/words…`: a level's words, and their file (`…/words/csv`). */
  ofLevel: Hono<AppEnv>
  /** `/api/words/{id}`: one word. */
  byId: Hono<AppEnv>
}

/** Words by level: administrators manage them; every change audited and announced. */
export function wordRoutes(db: Db, session: MiddlewareHandler<AppEnv>, limit: MiddlewareHandler<AppEnv>): WordRoutes {
  const admin = [session, requireAdmin(db)] as const
  const ofLevel = new Hono<AppEnv>()
    .get('/:id/words', describeList, ...admin, levelIdParam, queryParams(wordListQuerySchema), async (c) => {
      const page = await listWords(db, c.req.valid('param').id, c.req.valid('query'))
      return c.json(page)
    })
    .post('/:id/words', describeCreate, ...admin, limit, levelIdParam, jsonBody(wordInputSchema), async (c) => {
      const created = await createWord(db, c.req.valid('param').id, c.req.valid('json'), signedInUser(c))
      c.header('Location', `/api/words/${created.id}`)
      return c.json(created, 201)
    })
    .get('/:id/words/csv', describeExport, ...admin, levelIdParam, async (c) => {
      const { id } = c.req.valid('param')
      const body = wordsFile(await levelWordRows(db, id))
      return c.body(body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="lingua-words-level-${id}.csv"`,
      })
    })
    .post('/:id/words/csv', describeImport, ...admin, limit, levelIdParam, queryParams(csvImportQuerySchema), async (c) => {
      const parsed = parseWordsFile(await readCsvUpload(c, WORD_CSV_MAX_BYTES))
      const dryRun = c.req.valid('query').dryRun === 'true'
      const result = await importWords(db, c.req.valid('param').id, parsed, dryRun, signedInUser(c))
      if (!dryRun && result.refused.length > 0) throw refusedRowsError(result.refused)
      return c.json(result)
    })
  const byId = new Hono<AppEnv>()
    .patch('/:id', describePatch, ...admin, limit, wordIdParam, jsonBody(wordPatchSchema), async (c) => {
      const updated = await updateWord(db, c.req.valid('param').id, c.req.valid('json'), signedInUser(c))
      return c.json(updated)
    })
    .delete('/:id', describeDelete, ...admin, limit, wordIdParam, async (c) => {
      await deleteWord(db, c.req.valid('param').id, signedInUser(c))
      return c.body(null, 204)
    })
  return { ofLevel, byId }
}
