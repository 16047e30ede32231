import { Readable } from 'node:stream'
import { Hono, type MiddlewareHandler } from 'hono'
import { z } from 'zod/mini'
import { deckInputSchema, deckPatchSchema, deckWordInputSchema, deckWordListQuerySchema } from '@/shared/decks-schemas'
import { rowNumber } from '@/shared/query'
import { requireUser, signedInUser } from '@/server/auth/session'
import type { Db } from '@/server/db/client'
import { WORD_CSV_MAX_BYTES } from '@/shared/words'
import { readCsvUpload } from '@/server/http/csv'
import { previewCsvImport } from '@/server/api/imports/csv-import'
import { deckNotFound, ownsDeck } from '@/server/api/practice/queue'
import { jsonBody, pathParams, queryParams, rowIdParam } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import {
  describeAddDeckWord,
  describeCheckDeckCsv,
  describeCreateDeck,
  describeDeleteDeck,
  describeDeleteDeckWord,
  describeExportDeckAnki,
  describeExportDeckCsv,
  describeListDeckWords,
  describeListDecks,
  describePatchDeck,
  describePutDeckWord,
  describeReadDeck,
} from './docs'
import {
  addDeckWord,
  createDeck,
  deckWordNotFound,
  deleteDeck,
  deleteDeckWord,
  listDeckWords,
  listDecks,
  readDeck,
  updateDeck,
  updateDeckWord,
} from './store'
import { deckPackage } from './anki-export'
import { deckCsv, exportFileName, exportedDeck, exportedNotes } from './export-data'

/** Deck and word writes per learner: an evening of typing words in, not a script's flood. */
export const DECK_WRITES = { points: 300, seconds: 60 }

const deckIdParam = rowIdParam(deckNotFound)
const numeric = z.pipe(z.string().check(z.regex(/^[1-9]\d{0,9}$/)), z.transform(Number))
const wordParams = pathParams(z.object({ id: z.pipe(numeric, rowNumber()), wordId: z.pipe(numeric, rowNumber()) }), deckWordNotFound)

/** `/api/me/decks` (behind `readSession`): the signed-in learner's own decks and their words. */
export function deckRoutes(db: Db, limit: MiddlewareHandler<AppEnv>, now: () => Date) {
  return new Hono<AppEnv>()
    .get('/', describeListDecks, requireUser, async (c) => c.json(await listDecks(db, signedInUser(c).id, now())))
    .post('/', describeCreateDeck, requireUser, limit, jsonBody(deckInputSchema), async (c) => {
      const created = await createDeck(db, signedInUser(c).id, c.req.valid('json'), now())
      c.header('Location', `/api/me/decks/${created.id}`)
      return c.json(created, 201)
    })
    .get('/:id', describeReadDeck, requireUser, deckIdParam, async (c) => c.json(await readDeck(db, signedInUser(c).id, c.req.valid('param').id, now())))
    .patch('/:id', describePatchDeck, requireUser, limit, deckIdParam, jsonBody(deckPatchSchema), async (c) => {
      return c.json(await updateDeck(db, signedInUser(c).id, c.req.valid('param').id, c.req.valid('json'), now()))
    })
    .delete('/:id', describeDeleteDeck, requireUser, limit, deckIdParam, async (c) => {
      await deleteDeck(db, signedInUser(c).id, c.req.valid('param').id)
      return c.body(null, 204)
    })
    .get('/:id/words', describeListDeckWords, requireUser, deckIdParam, queryParams(deckWordListQuerySchema), async (c) => {
      return c.json(await listDeckWords(db, signedInUser(c).id, c.req.valid('param').id, c.req.valid('query')))
    })
    .post('/:id/words', describeAddDeckWord, requireUser, limit, deckIdParam, jsonBody(deckWordInputSchema), async (c) => {
      const added = await addDeckWord(db, signedInUser(c).id, c.req.valid('param').id, c.req.valid('json'))
      c.header('Location', `/api/me/decks/${added.deckId}/words/${added.id}`)
      return c.json(added, 201)
    })
    .put('/:id/words/:wordId', describePutDeckWord, requireUser, limit, wordParams, jsonBody(deckWordInputSchema), async (c) => {
      const { id, wordId } = c.req.valid('param')
      return c.json(await updateDeckWord(db, signedInUser(c).id, id, wordId, c.req.valid('json')))
    })
    .delete('/:id/words/:wordId', describeDeleteDeckWord, requireUser, limit, wordParams, async (c) => {
      const { id, wordId } = c.req.valid('param')
      await deleteDeckWord(db, signedInUser(c).id, id, wordId)
      return c.body(null, 204)
    })
    .post('/:id/words/csv', describeCheckDeckCsv, requireUser, limit, deckIdParam, async (c) => {
      const userId = signedInUser(c).id
      const { id } = c.req.valid('param')
      if (!(await ownsDeck(db, userId, id))) throw deckNotFound()
      return c.json(await previewCsvImport(db, userId, await readCsvUpload(c, WORD_CSV_MAX_BYTES), id))
    })
    .get('/:id/export.csv', describeExportDeckCsv, requireUser, deckIdParam, async (c) => {
      const userId = signedInUser(c).id
      const owner = await exportedDeck(db, userId, c.req.valid('param').id)
      const body = deckCsv(owner, await exportedNotes(db, userId, owner.id))
      return c.body(body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${exportFileName(owner, 'csv')}"`,
      })
    })
    .get('/:id/export.apkg', describeExportDeckAnki, requireUser, deckIdParam, async (c) => {
      const { fileName, body } = await deckPackage(db, signedInUser(c).id, c.req.valid('param').id, now())
      return c.body(Readable.toWeb(body) as ReadableStream<Uint8Array>, 200, {
        'Content-Type': 'application/apkg',
        'Content-Disposition': `attachment; filename="${fileName}"`,
      })
    })
}
