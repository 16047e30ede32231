import type * as NodeSqlite from 'node:sqlite'
import type { DatabaseSync } from 'node:sqlite'

/**
 * node:sqlite, loaded when a package is first read: a static import would stop an older Node at
 * link time, before the server's one-line refusal of it (package-info.ts) could run.
 */
type Sqlite = typeof NodeSqlite
let sqlite: Sqlite | undefined
const loadSqlite = async (): Promise<Sqlite> => (sqlite ??= await import('node:sqlite'))
import { PackageError, damaged, tooLarge } from './limits'
import { noteTypeKind } from './note-types'
import { decodeDeckIsFiltered, decodeNotetypeConfig, decodeTemplateConfig } from './proto'
import { type AnkiCard, type AnkiCollection, type AnkiDeck, type AnkiNote, type AnkiNoteType, AnkiReviews, SMALL_FIELDS } from './types'

/**
 * Reads a collection (an SQLite file from a package, already on disk in a private temp folder):
 * schema 11 (note types and decks as JSON in `col`) or 15–18 (their own tables). Opened read-only,
 * without extensions, with an authorizer that allows reading and nothing else (no ATTACH, no
 * PRAGMA, no functions); only fixed SELECTs run, never a WHERE or ORDER BY on a name: rows are
 * sorted here.
 *
 * Anki's name columns use its `unicase` collation, which node:sqlite cannot register. A plain
 * SELECT works on a rowid table, but `fields`, `templates` and `tags` are WITHOUT ROWID tables whose
 * every column is in the primary key's b-tree, and SQLite refuses any query on them ("no query
 * solution"). So, before reading, the temp copy's schema text says `nocase` instead (see
 * neutraliseCollation): rows are read by full scans, which compare no names.
 */
export type CollectionContent = Omit<AnkiCollection, 'format' | 'media'>

/** The newest collection schema Anki writes (SCHEMA_MAX_VERSION in rslib's storage/upgrades). */
const newestSchema = 18
const tablesOf11 = ['col', 'notes', 'cards', 'revlog']
const tablesOf15 = [...tablesOf11, 'notetypes', 'fields', 'templates', 'decks']

type Row = Record<string, unknown>

function int(value: unknown, what: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value)
  throw damaged(`${what} is not a number`)
}

function text(value: unknown, what: string): string {
  if (typeof value === 'string') return value
  throw damaged(`${what} is not text`)
}

function blob(value: unknown, what: string): Uint8Array {
  if (value instanceof Uint8Array) return value
  if (value === null) return new Uint8Array()
  throw damaged(`${what} is not binary`)
}

const byId = <T extends { id: number }>(a: T, b: T) => a.id - b.id

function openReadOnly({ DatabaseSync, constants }: Sqlite, path: string): DatabaseSync {
  let db: DatabaseSync
  try {
    db = new DatabaseSync(path, { readOnly: true, allowExtension: false, defensive: true })
  } catch {
    throw damaged('the collection is not a database')
  }
  db.setAuthorizer((action) =>
    action === constants.SQLITE_READ || action === constants.SQLITE_SELECT
      ? constants.SQLITE_OK
      : constants.SQLITE_DENY,
  )
  return db
}

/**
 * Rewrites `collate unicase` as `collate nocase` in the copy's stored schema: one connection,
 * allowed to read and update sqlite_master and to set writable_schema, nothing else.
 */
function neutraliseCollation({ DatabaseSync, constants }: Sqlite, path: string): void {
  let db: DatabaseSync
  try {
    db = new DatabaseSync(path, { allowExtension: false, defensive: false })
  } catch {
    throw damaged('the collection is not a database')
  }
  try {
    db.setAuthorizer((action, first) => {
      const allowed =
        ((action === constants.SQLITE_READ || action === constants.SQLITE_UPDATE) && first === 'sqlite_master') ||
        (action === constants.SQLITE_PRAGMA && first === 'writable_schema') ||
        action === constants.SQLITE_SELECT
      return allowed ? constants.SQLITE_OK : constants.SQLITE_DENY
    })
    const unicase = /(collate\s+)unicase\b/gi
    const schema = db.prepare('SELECT rowid, sql FROM sqlite_master').all()
    const changed = schema.filter((row) => typeof row.sql === 'string' && /collate\s+unicase\b/i.test(row.sql))
    if (changed.length === 0) return
    db.exec('PRAGMA writable_schema = ON')
    const update = db.prepare('UPDATE sqlite_master SET sql = ? WHERE rowid = ?')
    for (const row of changed) update.run((row.sql as string).replace(unicase, '$1nocase'), Number(row.rowid))
    db.exec('PRAGMA writable_schema = OFF')
  } finally {
    db?.close()
  }
}

function* rows(db: DatabaseSync, sql: string): Generator<Row> {
  yield* db.prepare(sql).iterate() as Iterable<Row>
}

/** The tables read must be plain tables: not views, virtual tables or generated columns. */
function checkTables(db: DatabaseSync, names: string[]): void {
  const found = new Map<string, { type: string; sql: string }>()
  for (const row of rows(db, 'SELECT type, name, sql FROM sqlite_master')) {
    if (typeof row.name === 'string')
      found.set(row.name.toLowerCase(), {
        type: typeof row.type === 'string' ? row.type : '',
        sql: typeof row.sql === 'string' ? row.sql : '',
      })
  }
  for (const name of names) {
    const table = found.get(name)
    if (!table) throw damaged(`the collection has no ${name} table`)
    if (table.type !== 'table' || /^\s*create\s+virtual\b/i.test(table.sql) || /\bas\s*\(/i.test(table.sql))
      throw damaged(`the collection's ${name} table is not a plain table`)
  }
}

function readNotes(db: DatabaseSync): AnkiNote[] {
  const notes: AnkiNote[] = []
  for (const row of rows(db, 'SELECT id, guid, mid, mod, tags, flds FROM notes')) {
    notes.push({
      id: int(row.id, 'a note id'),
      guid: text(row.guid, "a note's guid"),
      noteTypeId: int(row.mid, "a note's type"),
      fields: text(row.flds, "a note's fields").split('\x1f'),
      tags: text(row.tags, "a note's tags").split(/\s+/).filter(Boolean),
      modified: int(row.mod, "a note's time"),
    })
  }
  return notes.sort(byId)
}

function readCards(db: DatabaseSync): AnkiCard[] {
  const cards: AnkiCard[] = []
  const sql = 'SELECT id, nid, did, ord, type, queue, due, ivl, factor, reps, lapses, odue, odid FROM cards'
  for (const row of rows(db, sql)) {
    // A card in a filtered deck keeps its home deck in odid and its own due in odue.
    const homeDeck = int(row.odid, "a card's home deck")
    const homeDue = int(row.odue, "a card's home due")
    cards.push({
      id: int(row.id, 'a card id'),
      noteId: int(row.nid, "a card's note"),
      deckId: homeDeck || int(row.did, "a card's deck"),
      ordinal: int(row.ord, "a card's ordinal"),
      type: int(row.type, "a card's type"),
      queue: int(row.queue, "a card's queue"),
      due: homeDeck && homeDue ? homeDue : int(row.due, "a card's due"),
      interval: int(row.ivl, "a card's interval"),
      factor: int(row.factor, "a card's ease"),
      reps: int(row.reps, "a card's reviews"),
      lapses: int(row.lapses, "a card's lapses"),
    })
  }
  return cards.sort(byId)
}

/** An Anki value kept in 32 bits (AnkiReviews): a value past them is a damaged collection. */
function int32(value: unknown, what: string): number {
  const number = int(value, what)
  if (number !== (number | 0)) throw damaged(`${what} is out of range`)
  return number
}

/**
 * The revlog, packed (AnkiReviews), by card then time: SQLite sorts it (on Anki's `ix_revlog_cid`
 * when there). The arrays double as they fill (the authorizer allows no `count(*)`); past `max`
 * reviews, too_large.
 */
function readReviews(db: DatabaseSync, max: number): AnkiReviews {
  const first = Math.min(1024, max)
  let ids = new Float64Array(first)
  let cardIds = new Float64Array(first)
  let small = new Int32Array(first * SMALL_FIELDS)
  let count = 0
  for (const row of rows(db, 'SELECT id, cid, ease, ivl, lastIvl, factor, time, type FROM revlog ORDER BY cid, id')) {
    if (count === max) throw tooLarge('it holds more reviews than Lingua reads at once')
    if (count === ids.length) {
      const size = Math.min(count * 2, max)
      ids = grown(ids, new Float64Array(size))
      cardIds = grown(cardIds, new Float64Array(size))
      small = grown(small, new Int32Array(size * SMALL_FIELDS))
    }
    ids[count] = int(row.id, 'a review id')
    cardIds[count] = int(row.cid, "a review's card")
    const at = count * SMALL_FIELDS
    small[at] = int32(row.ease, "a review's answer")
    small[at + 1] = int32(row.ivl, "a review's interval")
    small[at + 2] = int32(row.lastIvl, "a review's last interval")
    small[at + 3] = int32(row.factor, "a review's ease")
    small[at + 4] = int32(row.time, "a review's time")
    small[at + 5] = int32(row.type, "a review's type")
    count++
  }
  return new AnkiReviews(ids.slice(0, count), cardIds.slice(0, count), small.slice(0, count * SMALL_FIELDS))
}

/** `larger` holding `array`'s values first. */
function grown<T extends Float64Array | Int32Array>(array: T, larger: T): T {
  larger.set(array)
  return larger
}

function parseJson(value: unknown, what: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text(value, what))
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>
  } catch {
    // below
  }
  throw damaged(`${what} is unreadable`)
}

const asRecord = (value: unknown, what: string): Record<string, unknown> => {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  throw damaged(`${what} is unreadable`)
}
const asArray = (value: unknown, what: string): unknown[] => {
  if (Array.isArray(value)) return value
  throw damaged(`${what} is unreadable`)
}
const byOrd = (a: Record<string, unknown>, b: Record<string, unknown>) => Number(a.ord ?? 0) - Number(b.ord ?? 0)

/** Schema 11: `col.models` {id: {name, type, flds: [{name, ord}], tmpls: [{qfmt, afmt, ord}]}}. */
function noteTypesOf11(models: Record<string, unknown>): AnkiNoteType[] {
  return Object.values(models)
    .map((value) => {
      const model = asRecord(value, 'a note type')
      const fields = asArray(model.flds, 'a note type').map((field) => asRecord(field, 'a note type'))
      const templates = asArray(model.tmpls, 'a note type').map((field) => asRecord(field, 'a note type'))
      const fieldNames = fields.sort(byOrd).map((field) => text(field.name, "a field's name"))
      return {
        id: int(model.id, 'a note type id'),
        name: text(model.name, "a note type's name"),
        fieldNames,
        kind: noteTypeKind({
          cloze: model.type === 1,
          originalStockKind: typeof model.originalStockKind === 'number' ? model.originalStockKind : 0,
          fieldNames,
          templates: templates.sort(byOrd).map((template) => ({
            qfmt: text(template.qfmt ?? '', 'a card template'),
            afmt: text(template.afmt ?? '', 'a card template'),
          })),
        }),
      }
    })
    .sort(byId)
}

/** Schema 11: `col.decks` {id: {id, name, dyn}}; filtered decks (dyn 1) are left out. */
function decksOf11(decks: Record<string, unknown>): AnkiDeck[] {
  return Object.values(decks)
    .map((value) => asRecord(value, 'a deck'))
    .filter((deck) => !deck.dyn)
    .map((deck) => ({ id: int(deck.id, 'a deck id'), name: text(deck.name, "a deck's name") }))
    .sort(byId)
}

/** Rows of a child table (fields, templates) grouped by note type, in ordinal order. */
function byNoteType<T>(db: DatabaseSync, sql: string, read: (row: Row) => T): Map<number, T[]> {
  const grouped = new Map<number, { ord: number; value: T }[]>()
  for (const row of rows(db, sql)) {
    const id = int(row.ntid, "a field's note type")
    const list = grouped.get(id) ?? []
    list.push({ ord: int(row.ord, "a field's ordinal"), value: read(row) })
    grouped.set(id, list)
  }
  return new Map(
    [...grouped].map(([id, list]) => [id, list.sort((a, b) => a.ord - b.ord).map((item) => item.value)]),
  )
}

function noteTypesOf18(db: DatabaseSync): AnkiNoteType[] {
  const fields = byNoteType(db, 'SELECT ntid, ord, name FROM fields', (row) => text(row.name, "a field's name"))
  const templates = byNoteType(db, 'SELECT ntid, ord, config FROM templates', (row) =>
    decodeTemplateConfig(blob(row.config, 'a card template')),
  )
  const noteTypes: AnkiNoteType[] = []
  for (const row of rows(db, 'SELECT id, name, config FROM notetypes')) {
    const id = int(row.id, 'a note type id')
    const config = decodeNotetypeConfig(blob(row.config, 'a note type'))
    const fieldNames = fields.get(id) ?? []
    noteTypes.push({
      id,
      name: text(row.name, "a note type's name"),
      fieldNames,
      kind: noteTypeKind({
        cloze: config.kind === 1,
        originalStockKind: config.originalStockKind,
        fieldNames,
        templates: templates.get(id) ?? [],
      }),
    })
  }
  return noteTypes.sort(byId)
}

/** Schema 18 deck names separate their levels with 0x1f; filtered decks are left out. */
function decksOf18(db: DatabaseSync): AnkiDeck[] {
  const decks: AnkiDeck[] = []
  for (const row of rows(db, 'SELECT id, name, kind FROM decks')) {
    if (decodeDeckIsFiltered(blob(row.kind, 'a deck'))) continue
    decks.push({ id: int(row.id, 'a deck id'), name: text(row.name, "a deck's name").split('\x1f').join('::') })
  }
  return decks.sort(byId)
}

function readContent(db: DatabaseSync, limits: { reviews: number }): CollectionContent {
  checkTables(db, tablesOf11)
  const col = db.prepare('SELECT crt, ver, models, decks FROM col').get() as Row | undefined
  if (!col) throw damaged('the collection has no header')
  const version = int(col.ver, "the collection's version")
  if (version > newestSchema) throw new PackageError('newer_anki')
  if (version < 11) throw damaged('the collection is of an unknown version')
  const created = int(col.crt, "the collection's creation time")
  if (version >= 15) checkTables(db, tablesOf15)
  const noteTypes =
    version >= 15 ? noteTypesOf18(db) : noteTypesOf11(parseJson(col.models, "the collection's note types"))
  const decks = version >= 15 ? decksOf18(db) : decksOf11(parseJson(col.decks, "the collection's decks"))
  return { created, decks, noteTypes, notes: readNotes(db), cards: readCards(db), reviews: readReviews(db, limits.reviews) }
}

/** Reads the collection at `path`; an SQLite error is a damaged collection. */
export async function readCollectionFile(path: string, limits: { reviews: number }): Promise<CollectionContent> {
  const sqlite = await loadSqlite()
  let db: DatabaseSync | undefined
  try {
    neutraliseCollation(sqlite, path)
    db = openReadOnly(sqlite, path)
    return readContent(db, limits)
  } catch (error) {
    if (error instanceof PackageError) throw error
    const detail = error instanceof Error && /not a database|malformed|corrupt/i.test(error.message)
    throw damaged(detail ? 'the collection is not a database' : 'the collection is unreadable')
  } finally {
    db?.close()
  }
}
