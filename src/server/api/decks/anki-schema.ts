import type { NoteKind } from '@/shared/decks'

/**
 * Anki's collection schema 11 (rslib/src/storage/schema11.sql), the one every Anki version imports,
 * and the JSON its `col` row holds: the note types, decks and options a package of one deck needs.
 * Every key Anki's schema-11 reader requires is written (rslib's NotetypeSchema11, DeckSchema11,
 * DeckConfSchema11), with Anki's own defaults.
 */

export const SCHEMA_11 = `
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
create index ix_notes_csum on notes (csum);`

/** Anki's day starts at 4 in the morning (its `rollover`): the collection's creation is one. */
export const ROLLOVER_HOUR = 4

const answerLine = '\n\n<hr id=answer>\n\n'
const card1 = { name: 'Card 1', qfmt: '{{Front}}', afmt: `{{FrontSide}}${answerLine}{{Back}}` }
const card2 = { name: 'Card 2', qfmt: '{{Back}}', afmt: `{{FrontSide}}${answerLine}{{Front}}` }

interface StockType {
  name: string
  /** StockNotetype.OriginalStockKind: how Anki 2.1.62+ (and Lingua's reader) knows it. */
  stockKind: number
  cloze: boolean
  fields: string[]
  templates: { name: string; qfmt: string; afmt: string }[]
  /** Which fields each card needs (schema 11's `req`, read by Anki before 2.1.28). */
  req: [number, 'any' | 'all', number[]][]
}

/** Anki's stock note types (rslib/src/notetype/stock.rs), in English, one per kind of note. */
const stockTypes: Record<NoteKind, StockType> = {
  basic: { name: 'Basic', stockKind: 1, cloze: false, fields: ['Front', 'Back'], templates: [card1], req: [[0, 'any', [0]]] },
  reversed: {
    name: 'Basic (and reversed card)',
    stockKind: 2,
    cloze: false,
    fields: ['Front', 'Back'],
    templates: [card1, card2],
    req: [[0, 'any', [0]], [1, 'any', [1]]],
  },
  optionalReversed: {
    name: 'Basic (optional reversed card)',
    stockKind: 3,
    cloze: false,
    fields: ['Front', 'Back', 'Add Reverse'],
    templates: [card1, { ...card2, qfmt: '{{#Add Reverse}}{{Back}}{{/Add Reverse}}' }],
    req: [[0, 'any', [0]], [1, 'all', [1, 2]]],
  },
  typing: {
    name: 'Basic (type in the answer)',
    stockKind: 4,
    cloze: false,
    fields: ['Front', 'Back'],
    templates: [{ name: 'Card 1', qfmt: '{{Front}}\n\n{{type:Back}}', afmt: `{{Front}}${answerLine}{{type:Back}}` }],
    req: [[0, 'any', [0]]],
  },
  cloze: {
    name: 'Cloze',
    stockKind: 5,
    cloze: true,
    fields: ['Text', 'Back Extra'],
    templates: [{ name: 'Cloze', qfmt: '{{cloze:Text}}', afmt: '{{cloze:Text}}<br>\n{{Back Extra}}' }],
    req: [[0, 'any', [0]]],
  },
}

const kindOrder: NoteKind[] = ['basic', 'reversed', 'optionalReversed', 'typing', 'cloze']

/** How many fields the stock note type of `kind` has (a note may have more: its notes). */
export const stockFieldCount = (kind: NoteKind): number => stockTypes[kind].fields.length

/**
 * The note type of `kind` with `fieldCount` fields: the stock one, plus fields "Notes", "Notes 2"…
 * shown under the answer. Its id is fixed by kind and count, so a package imported again finds it.
 */
export function noteTypeJson(kind: NoteKind, fieldCount: number, modified: number) {
  const stock = stockTypes[kind]
  const extra = Array.from({ length: Math.max(0, fieldCount - stock.fields.length) }, (_, index) => (index === 0 ? 'Notes' : `Notes ${index + 1}`))
  const fields = [...stock.fields, ...extra]
  const shown = extra.map((name) => `{{#${name}}}<br>{{${name}}}{{/${name}}}`).join('')
  const id = noteTypeId(kind, fields.length)
  return {
    id,
    name: extra.length ? `${stock.name} + ${extra.length === 1 ? 'notes' : `${extra.length} notes`}` : stock.name,
    type: stock.cloze ? 1 : 0,
    mod: modified,
    usn: 0,
    sortf: 0,
    did: null,
    vers: [],
    tags: [],
    css: '.card {\n  font-family: arial;\n  font-size: 20px;\n  text-align: center;\n  color: black;\n  background-color: white;\n}\n',
    latexPre: '\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage[utf8]{inputenc}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n\\begin{document}\n',
    latexPost: '\\end{document}',
    latexsvg: false,
    req: stock.req,
    originalStockKind: stock.stockKind,
    flds: fields.map((name, ord) => ({ name, ord, sticky: false, rtl: false, font: 'Arial', size: 20 })),
    tmpls: stock.templates.map((template, ord) => ({
      ...template,
      afmt: template.afmt + shown,
      ord,
      bqfmt: '',
      bafmt: '',
      did: null,
      bfont: '',
      bsize: 0,
    })),
  }
}

/** A fixed id per kind and field count, in Anki's range of ids (epoch milliseconds, 2020). */
export const noteTypeId = (kind: NoteKind, fieldCount: number): number => 1_600_000_000_000 + kindOrder.indexOf(kind) * 100 + fieldCount

/** A normal deck (schema 11), with deck options 1. */
export function deckJson(id: number, name: string, description: string, modified: number) {
  return {
    id,
    name,
    mod: modified,
    usn: 0,
    desc: description,
    dyn: 0,
    conf: 1,
    collapsed: false,
    browserCollapsed: false,
    extendNew: 0,
    extendRev: 0,
    lrnToday: [0, 0],
    revToday: [0, 0],
    newToday: [0, 0],
    timeToday: [0, 0],
  }
}

/** Deck options 1, Anki's defaults. */
export function deckOptionsJson(modified: number) {
  return {
    1: {
      id: 1,
      mod: modified,
      name: 'Default',
      usn: 0,
      maxTaken: 60,
      autoplay: true,
      timer: 0,
      replayq: true,
      dyn: false,
      new: { bury: false, delays: [1, 10], initialFactor: 2500, ints: [1, 4, 0], order: 1, perDay: 20 },
      rev: { bury: false, ease4: 1.3, ivlFct: 1, maxIvl: 36500, perDay: 200, hardFactor: 1.2 },
      lapse: { delays: [10], leechAction: 1, leechFails: 8, minInt: 1, mult: 0 },
    },
  }
}

/** The collection's settings: the v2 scheduler (four answer buttons in learning too), this deck current. */
export function collectionConfJson(deckId: number, noteTypeIds: number[], nextPosition: number) {
  return {
    activeDecks: [deckId],
    curDeck: deckId,
    newSpread: 0,
    collapseTime: 1200,
    timeLim: 0,
    estTimes: true,
    dueCounts: true,
    curModel: noteTypeIds[0] ?? null,
    nextPos: nextPosition,
    sortType: 'noteFld',
    sortBackwards: false,
    addToCur: true,
    dayLearnFirst: false,
    schedVer: 2,
    rollover: ROLLOVER_HOUR,
  }
}
