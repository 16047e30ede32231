import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { zstdCompressSync } from 'node:zlib'
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire'
import yazl from 'yazl'

/**
 * Writes Anki packages as Anki writes them, for tests: schema 11 `collection.anki2` (Anki 2.0,
 * package version legacy 1), `collection.anki21` (2.1 before 2.1.50, or 2.1.50+'s legacy export
 * with `meta` version 2) with a JSON media map and deflated entries, and Anki 2.1.50+'s
 * `collection.anki21b` (schema 18, zstd) with a protobuf `meta`, a dummy `collection.anki2`, a zstd
 * protobuf media list and zstd media entries, all stored. The SQL is Anki's (rslib/src/storage/
 * schema11.sql and upgrades/schema14…18_upgrade.sql); `hostile` breaks the package on purpose.
 */
export interface NoteTypeSpec {
  id: number
  name: string
  cloze?: boolean
  fields: string[]
  templates: { name: string; qfmt: string; afmt: string }[]
  /** StockNotetype.OriginalStockKind (Anki 2.1.62+), 0 or absent for none. */
  originalStockKind?: number
}
interface DeckSpec {
  id: number
  /** Levels joined with '::'. */
  name: string
  filtered?: boolean
}
interface NoteSpec {
  id: number
  guid?: string
  noteTypeId: number
  fields: string[]
  tags?: string[]
  modified?: number
}
interface CardSpec {
  id: number
  noteId: number
  deckId: number
  ordinal?: number
  type?: number
  queue?: number
  due?: number
  interval?: number
  factor?: number
  reps?: number
  lapses?: number
  /** In a filtered deck: the home deck and due. */
  originalDeckId?: number
  originalDue?: number
}
interface ReviewSpec {
  id: number
  cardId: number
  ease: number
  interval: number
  lastInterval: number
  factor: number
  time: number
  type: number
}
interface Hostile {
  /** The declared uncompressed size of an entry, rewritten in its local and central headers. */
  declaredSize?: { entry: string; size: number }
  /** Replaces the collection, the media list or the first media file by zstd frames of zeros. */
  zstdBomb?: { part: 'collection' | 'media list' | 'media'; bytes: number }
  /** Adds a deflated entry of `bytes` zeros. */
  zipBomb?: { name: string; bytes: number }
  /** More entries, written after the others; any name (`../evil`, `/abs`, a known name again). */
  extraEntries?: { name: string; data: Buffer }[]
  /** The collection's bytes (before zstd), e.g. not SQLite. */
  collectionBytes?: Buffer
  colVersion?: number
  metaVersion?: number
  omitCollection?: boolean
  /** The media list's bytes (before zstd). */
  mediaList?: Buffer
  /** Leaves the collection in WAL mode (header bytes 18 and 19). */
  wal?: boolean
  /** Anki 2.1.50+: the media list declares a wrong size or SHA-1 for every file. */
  mediaLie?: 'size' | 'sha1'
}
export interface PackageSpec {
  format: 'anki2' | 'anki21' | 'anki21b'
  /** 'anki21' only: with `meta` version 2, as Anki 2.1.50+ writes a legacy package. */
  legacyMeta?: boolean
  /** col.crt, epoch seconds. */
  created?: number
  decks?: DeckSpec[]
  noteTypes?: NoteTypeSpec[]
  notes?: NoteSpec[]
  cards?: CardSpec[]
  reviews?: ReviewSpec[]
  media?: { name: string; data: Buffer }[]
  hostile?: Hostile
}

const answer = '\n\n<hr id=answer>\n\n'
const card1 = { name: 'Card 1', qfmt: '{{Front}}', afmt: `{{FrontSide}}${answer}{{Back}}` }
const card2 = { name: 'Card 2', qfmt: '{{Back}}', afmt: `{{FrontSide}}${answer}{{Front}}` }
/** Anki's stock note types (rslib/src/notetype/stock.rs), in English. */
export const stock = {
  basic: { id: 1700000000001, name: 'Basic', fields: ['Front', 'Back'], templates: [card1] },
  reversed: { id: 1700000000002, name: 'Basic (and reversed card)', fields: ['Front', 'Back'], templates: [card1, card2] },
  optionalReversed: {
    id: 1700000000003,
    name: 'Basic (optional reversed card)',
    fields: ['Front', 'Back', 'Add Reverse'],
    templates: [card1, { ...card2, qfmt: '{{#Add Reverse}}{{Back}}{{/Add Reverse}}' }],
  },
  typing: {
    id: 1700000000004,
    name: 'Basic (type in the answer)',
    fields: ['Front', 'Back'],
    templates: [{ name: 'Card 1', qfmt: '{{Front}}\n\n{{type:Back}}', afmt: `{{Front}}${answer}{{type:Back}}` }],
  },
  cloze: {
    id: 1700000000005,
    name: 'Cloze',
    cloze: true,
    fields: ['Text', 'Back Extra'],
    templates: [{ name: 'Cloze', qfmt: '{{cloze:Text}}', afmt: '{{cloze:Text}}<br>\n{{Back Extra}}' }],
  },
} satisfies Record<string, NoteTypeSpec>

/** A note type of the learner's own: three fields, one card. */
export const custom: NoteTypeSpec = {
  id: 1700000000006,
  name: 'Vocabulary',
  fields: ['Word', 'Meaning', 'Example'],
  templates: [{ name: 'Recognise', qfmt: '{{Word}}', afmt: `{{FrontSide}}${answer}{{Meaning}}<br>{{Example}}` }],
}

const schema11 = `
create table col (id integer primary key, crt integer not null, mod integer not null, scm integer not null,
  ver integer not null, dty integer not null, usn integer not null, ls integer not null, conf text not null,
  models text not null, decks text not null, dconf text not null, tags text not null);
create table notes (id integer primary key, guid text not null, mid integer not null, mod integer not null,
  usn integer not null, tags text not null, flds text not null, sfld integer not null, csum integer not null,
  flags integer not null, data text not null);
create table cards (id integer primary key, nid integer not null, did integer not null, ord integer not null,
  mod integer not null, usn integer not null, type integer not null, queue integer not null, due integer not null,
  ivl integer not null, factor integer not null, reps integer not null, lapses integer not null,
  left integer not null, odue integer not null, odid integer not null, flags integer not null, data text not null);
create table revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null,
  ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null, type integer not null);
create table graves (usn integer not null, oid integer not null, type integer not null);
create index ix_notes_usn on notes (usn);
create index ix_cards_usn on cards (usn);
create index ix_revlog_usn on revlog (usn);
create index ix_cards_nid on cards (nid);
create index ix_cards_sched on cards (did, queue, due);
create index ix_revlog_cid on revlog (cid);
create index ix_notes_csum on notes (csum);
insert into col values (1,0,0,0,0,0,0,0,'{}','{}','{}','{}','{}');`

/**
 * Schema 14, 15, 17 and 18 upgrades. node:sqlite cannot register Anki's `unicase` collation: the
 * tables are made with `binary`, and their stored SQL says `unicase` (as Anki's files do) after.
 */
const schema18 = `
create table deck_config (id integer primary key not null, name text not null collate unicase,
  mtime_secs integer not null, usn integer not null, config blob not null);
create table config (key text not null primary key, usn integer not null, mtime_secs integer not null,
  val blob not null) without rowid;
create table fields (ntid integer not null, ord integer not null, name text not null collate unicase,
  config blob not null, primary key (ntid, ord)) without rowid;
create table templates (ntid integer not null, ord integer not null, name text not null collate unicase,
  mtime_secs integer not null, usn integer not null, config blob not null, primary key (ntid, ord)) without rowid;
create table notetypes (id integer not null primary key, name text not null collate unicase,
  mtime_secs integer not null, usn integer not null, config blob not null);
create table decks (name text not null primary key collate unicase, id integer not null,
  mtime_secs integer not null, usn integer not null, common bytes not null, kind bytes not null);
create unique index idx_decks_id on decks (id);
create table tags (tag text not null primary key collate unicase, usn integer not null,
  collapsed boolean not null, config blob null) without rowid;
alter table graves rename to graves_old;
create table graves (oid integer not null, type integer not null, usn integer not null,
  primary key (oid, type)) without rowid;
insert or ignore into graves (oid, type, usn) select oid, type, usn from graves_old;
drop table graves_old;
create index idx_graves_pending on graves (usn);`

const message = (build: (writer: BinaryWriter) => void): Uint8Array => {
  const writer = new BinaryWriter()
  build(writer)
  return writer.finish()
}
const now = 1_750_000_000

/** The first 8 hex digits of the first field's SHA-1, as Anki's field checksum. */
const checksum = (field: string) => parseInt(createHash('sha1').update(field).digest('hex').slice(0, 8), 16)

function modelJson(type: NoteTypeSpec) {
  return {
    id: type.id, name: type.name, type: type.cloze ? 1 : 0, mod: now, usn: 0, sortf: 0, did: null, vers: [], tags: [],
    css: '.card { font-family: arial; }', latexPre: '', latexPost: '', latexsvg: false, req: [[0, 'any', [0]]],
    flds: type.fields.map((name, ord) => ({ name, ord, sticky: false, rtl: false, font: 'Arial', size: 20 })),
    tmpls: type.templates.map((t, ord) => ({ ...t, ord, bqfmt: '', bafmt: '', did: null, bfont: '', bsize: 0 })),
    ...(type.originalStockKind ? { originalStockKind: type.originalStockKind } : {}),
  }
}

function deckJson(deck: DeckSpec) {
  const common = { id: deck.id, name: deck.name, mod: now, usn: 0, desc: '', collapsed: false, browserCollapsed: false }
  const today = { lrnToday: [0, 0], revToday: [0, 0], newToday: [0, 0], timeToday: [0, 0] }
  return deck.filtered
    ? { ...common, ...today, dyn: 1, resched: true, terms: [['is:due', 100, 0]], delays: null }
    : { ...common, ...today, dyn: 0, conf: 1, extendNew: 0, extendRev: 0 }
}

/** Creates the collection file: schema 11 (JSON in `col`) or 18 (tables, protobuf configs). */
function createCollection(path: string, spec: PackageSpec, version: 11 | 18): void {
  const db = new DatabaseSync(path, { defensive: false })
  db.exec(`pragma page_size = 4096; pragma journal_mode = delete; ${schema11}; begin`)
  const decks = [...(spec.decks ?? [])]
  if (!decks.some((deck) => deck.id === 1)) decks.unshift({ id: 1, name: 'Default' })
  const types = spec.noteTypes ?? []
  if (version === 11) {
    const models = Object.fromEntries(types.map((type) => [String(type.id), modelJson(type)]))
    const deckMap = Object.fromEntries(decks.map((deck) => [String(deck.id), deckJson(deck)]))
    const dconf = { 1: { id: 1, name: 'Default', new: { perDay: 20 }, rev: { perDay: 200 } } }
    db.prepare('update col set crt = ?, mod = ?, scm = ?, ver = 11, conf = ?, models = ?, decks = ?, dconf = ?')
      .run(spec.created ?? now, now * 1000, now * 1000, JSON.stringify({ nextPos: 1 }), JSON.stringify(models),
        JSON.stringify(deckMap), JSON.stringify(dconf))
  } else {
    db.exec(schema18.replaceAll('collate unicase', 'collate binary'))
    db.prepare("update col set crt = ?, mod = ?, scm = ?, ver = 18, conf = '', models = '', decks = '', dconf = '', tags = ''")
      .run(spec.created ?? now, now * 1000, now * 1000)
    const addType = db.prepare('insert into notetypes values (?, ?, ?, 0, ?)')
    const addField = db.prepare('insert into fields values (?, ?, ?, ?)')
    const addTemplate = db.prepare('insert into templates values (?, ?, ?, ?, 0, ?)')
    for (const type of types) {
      addType.run(type.id, type.name, now, message((w) => {
        w.tag(1, WireType.Varint).int32(type.cloze ? 1 : 0).tag(3, WireType.LengthDelimited).string('.card {}')
        if (type.originalStockKind) w.tag(9, WireType.Varint).int32(type.originalStockKind)
      }))
      type.fields.forEach((name, ord) =>
        addField.run(type.id, ord, name, message((w) => w.tag(3, WireType.LengthDelimited).string('Arial').tag(4, WireType.Varint).uint32(20))))
      type.templates.forEach((template, ord) =>
        addTemplate.run(type.id, ord, template.name, now, message((w) =>
          w.tag(1, WireType.LengthDelimited).string(template.qfmt).tag(2, WireType.LengthDelimited).string(template.afmt))))
    }
    const addDeck = db.prepare('insert into decks values (?, ?, ?, 0, ?, ?)')
    for (const deck of decks) {
      const kind = deck.filtered
        ? message((w) => w.tag(2, WireType.LengthDelimited).bytes(message((f) => f.tag(1, WireType.Varint).bool(true))))
        : message((w) => w.tag(1, WireType.LengthDelimited).bytes(message((n) => n.tag(1, WireType.Varint).int64(1))))
      addDeck.run(deck.name.split('::').join('\x1f'), deck.id, now, new Uint8Array(), kind)
    }
    db.prepare('insert into deck_config values (1, ?, ?, 0, ?)').run('Default', now, new Uint8Array())
    db.prepare('insert into config values (?, 0, ?, ?)').run('curModel', now, Buffer.from(String(types[0]?.id ?? 0)))
    const tags = new Set((spec.notes ?? []).flatMap((note) => note.tags ?? []))
    for (const tag of tags) db.prepare('insert into tags values (?, 0, 0, null)').run(tag)
  }
  const addNote = db.prepare('insert into notes values (?, ?, ?, ?, 0, ?, ?, ?, ?, 0, ?)')
  for (const note of spec.notes ?? []) {
    const tags = note.tags?.length ? ` ${note.tags.join(' ')} ` : ''
    const first = note.fields[0] ?? ''
    addNote.run(note.id, note.guid ?? `g${note.id}`, note.noteTypeId, note.modified ?? now, tags,
      note.fields.join('\x1f'), first, checksum(first), '')
  }
  const addCard = db.prepare('insert into cards values (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, 0, ?)')
  for (const card of spec.cards ?? []) {
    addCard.run(card.id, card.noteId, card.deckId, card.ordinal ?? 0, now, card.type ?? 0, card.queue ?? card.type ?? 0,
      card.due ?? 0, card.interval ?? 0, card.factor ?? 0, card.reps ?? 0, card.lapses ?? 0, card.originalDue ?? 0,
      card.originalDeckId ?? 0, '{}')
  }
  const addReview = db.prepare('insert into revlog values (?, ?, 0, ?, ?, ?, ?, ?, ?)')
  for (const r of spec.reviews ?? [])
    addReview.run(r.id, r.cardId, r.ease, r.interval, r.lastInterval, r.factor, r.time, r.type)
  if (spec.hostile?.colVersion !== undefined) db.prepare('update col set ver = ?').run(spec.hostile.colVersion)
  db.exec('commit')
  if (version === 18) {
    db.exec(`pragma writable_schema = on;
      update sqlite_master set sql = replace(sql, 'collate binary', 'collate unicase');
      pragma writable_schema = off`)
  }
  db.close()
}

/** zstd frames of zeros, `bytes` in all: a few KiB that expand to anything. */
function zstdZeros(bytes: number): Buffer {
  const chunk = 64 * 1024 * 1024
  const frame = zstdCompressSync(Buffer.alloc(Math.min(bytes, chunk)))
  return Buffer.concat(Array.from({ length: Math.ceil(bytes / chunk) }, () => frame))
}

/** The package's entries, in Anki's order: meta, collection, dummy collection, media, media list. */
async function entries(spec: PackageSpec, folder: string): Promise<{ name: string; data: Buffer; deflate: boolean }[]> {
  const latest = spec.format === 'anki21b'
  const hostile = spec.hostile ?? {}
  const zstd = (data: Buffer) => (latest ? zstdCompressSync(data) : data)
  const out: { name: string; data: Buffer; deflate: boolean }[] = []
  const metaVersion = hostile.metaVersion ?? (latest ? 3 : spec.legacyMeta ? 2 : undefined)
  if (metaVersion !== undefined)
    out.push({ name: 'meta', data: Buffer.from(message((w) => w.tag(1, WireType.Varint).int32(metaVersion))), deflate: false })
  const path = join(folder, 'collection')
  createCollection(path, spec, latest ? 18 : 11)
  let collection = hostile.collectionBytes ?? (await readFile(path))
  if (hostile.wal) (collection = Buffer.from(collection)).set([2, 2], 18)
  if (!hostile.omitCollection) {
    const name = latest ? 'collection.anki21b' : spec.format === 'anki21' ? 'collection.anki21' : 'collection.anki2'
    const bomb = hostile.zstdBomb?.part === 'collection' ? zstdZeros(hostile.zstdBomb.bytes) : undefined
    out.push({ name, data: bomb ?? zstd(collection), deflate: !latest })
  }
  if (spec.format !== 'anki2') {
    // Older Anki reads collection.anki2: a collection whose one note asks to update Anki.
    const dummy = join(folder, 'dummy')
    createCollection(dummy, {
      format: 'anki2',
      noteTypes: [stock.basic],
      notes: [{ id: 1, noteTypeId: stock.basic.id, fields: ['Please update to the latest Anki version.', ''] }],
      cards: [{ id: 1, noteId: 1, deckId: 1 }],
    }, 11)
    out.push({ name: 'collection.anki2', data: await readFile(dummy), deflate: !latest })
  }
  const media = spec.media ?? []
  media.forEach((file, index) => {
    const bomb = hostile.zstdBomb?.part === 'media' && index === 0 ? zstdZeros(hostile.zstdBomb.bytes) : undefined
    out.push({ name: String(index), data: bomb ?? zstd(file.data), deflate: !latest })
  })
  const list = latest
    ? Buffer.from(message((w) => {
        for (const file of media) {
          const sha1 = createHash('sha1').update(hostile.mediaLie === 'sha1' ? 'other' : file.data).digest()
          const size = file.data.length + (hostile.mediaLie === 'size' ? 1 : 0)
          w.tag(1, WireType.LengthDelimited).bytes(message((e) =>
            e.tag(1, WireType.LengthDelimited).string(file.name).tag(2, WireType.Varint).uint32(size)
              .tag(3, WireType.LengthDelimited).bytes(sha1)))
        }
      }))
    : Buffer.from(JSON.stringify(Object.fromEntries(media.map((file, index) => [String(index), file.name]))))
  const listBomb = hostile.zstdBomb?.part === 'media list' ? zstdZeros(hostile.zstdBomb.bytes) : undefined
  out.push({ name: 'media', data: listBomb ?? zstd(hostile.mediaList ?? list), deflate: !latest })
  if (hostile.zipBomb) out.push({ name: hostile.zipBomb.name, data: Buffer.alloc(hostile.zipBomb.bytes), deflate: true })
  for (const extra of hostile.extraEntries ?? []) out.push({ ...extra, deflate: true })
  return out
}

/** Each zip entry's name (at `name`), sizes (`sizes`: compressed, uncompressed) in both headers. */
function* zipHeaders(zip: Buffer): Generator<{ name: number; nameLength: number; sizes: number; central: boolean }> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  let at = zip.readUInt32LE(eocd + 16)
  for (let i = 0; i < zip.readUInt16LE(eocd + 10); i++) {
    const nameLength = zip.readUInt16LE(at + 28)
    yield { name: at + 46, nameLength, sizes: at + 20, central: true }
    const local = zip.readUInt32LE(at + 42)
    yield { name: local + 30, nameLength: zip.readUInt16LE(local + 26), sizes: local + 18, central: false }
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
}

/** The entry names of a zip's central directory, as stored. */
export const zipNames = (zip: Buffer): string[] =>
  [...zipHeaders(zip)].filter((h) => h.central).map((h) => zip.toString('utf8', h.name, h.name + h.nameLength))

/** Writes the package to `file`. */
export async function writeAnkiPackage(file: string, spec: PackageSpec): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'anki-package-'))
  try {
    const zip = new yazl.ZipFile()
    // Names yazl refuses (`../evil`) are written as placeholders of the same length, then patched.
    const renames = new Map<string, string>()
    for (const entry of await entries(spec, folder)) {
      const placeholder = `${'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[renames.size % 26]}${renames.size}`.padEnd(Buffer.byteLength(entry.name), '_')
      const rename = !/^[\w. -]+$/.test(entry.name) || renames.has(entry.name)
      if (rename) renames.set(placeholder.slice(0, Buffer.byteLength(entry.name)), entry.name)
      else renames.set(entry.name, entry.name)
      const name = rename ? placeholder.slice(0, Buffer.byteLength(entry.name)) : entry.name
      zip.addBuffer(entry.data, name, { compress: entry.deflate, mtime: new Date(now * 1000) })
    }
    zip.end()
    const chunks: Buffer[] = []
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer)
    const bytes = Buffer.concat(chunks)
    for (const header of zipHeaders(bytes)) {
      const written = bytes.toString('utf8', header.name, header.name + header.nameLength)
      const real = renames.get(written) ?? written
      bytes.write(real, header.name, 'utf8')
      const declared = spec.hostile?.declaredSize
      if (declared?.entry === real) bytes.writeUInt32LE(declared.size, header.sizes + 4)
    }
    await writeFile(file, bytes)
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}
