import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { type PackageSpec, stock, writeAnkiPackage } from '../anki-package'
import { distinctPng } from '../anki-large-package'
import { type HeaderChange, type Shot, shot } from './shots'
import { hostileString } from './values'

/*
 * Hostile input for the learner's imports and decks (docs/product.md §12): multipart uploads that
 * break the form (no boundary, garbage, cut off, huge or many fields, `file` twice…), Anki packages
 * broken on purpose by the test writer's `hostile` options, CSV files with NUL, formulas and huge
 * lines, odd import ids and media hashes. The multipart endpoint and the media route are not fired
 * at by the OpenAPI-driven properties (the first reads no JSON, the second is undocumented).
 */

export const IMPORTS = '/api/me/imports'

export interface FormPart {
  /** The Content-Disposition line's parameters as written (name, filename), or the whole header block. */
  disposition: string
  contentType?: string
  data: Buffer
}

const CRLF = '\r\n'

/** A multipart/form-data body as a browser writes it: parts between `--boundary` lines, then `--boundary--`. */
export function formBody(boundary: string, parts: FormPart[], options: { closed?: boolean; preamble?: string } = {}): Buffer {
  const pieces: Buffer[] = []
  if (options.preamble) pieces.push(Buffer.from(options.preamble + CRLF))
  for (const part of parts) {
    const head = [`--${boundary}`, `Content-Disposition: form-data; ${part.disposition}`]
    if (part.contentType !== undefined) head.push(`Content-Type: ${part.contentType}`)
    pieces.push(Buffer.from(head.join(CRLF) + CRLF + CRLF, 'latin1'), part.data, Buffer.from(CRLF))
  }
  if (options.closed ?? true) pieces.push(Buffer.from(`--${boundary}--${CRLF}`))
  return Buffer.concat(pieces)
}

export const filePart = (data: Buffer, filename = 'words.csv', name = 'file'): FormPart => ({
  disposition: `name="${name}"; filename="${filename}"`,
  contentType: 'application/octet-stream',
  data,
})
export const fieldPart = (name: string, value: string): FormPart => ({ disposition: `name="${name}"`, data: Buffer.from(value) })

const boundaryOf = (n: number) => `----lingua-hostile-${n.toString(36)}`
const multipartType = (boundary: string): HeaderChange => ({ name: 'Content-Type', action: 'set', value: `multipart/form-data; boundary=${boundary}` })

/** The header row of the words' CSV (§11). */
const csvHeader = 'language,text,translation_en,translation_ru,example,part_of_speech'
const csvRow = (text: string) => Buffer.from(`${csvHeader}\nes,${text},hello,привет,,\n`)

/** A deckId field that is not one: the server reads `^\d{1,9}$` only. */
const oddDeckIds = ['', '-1', '0x10', '1e3', '1.5', ' 1', '1 ', '+1', '1234567890', '９', '1\u0000', 'null', '[]', '{"id":1}', 'x'.repeat(1000)]

/** A form the parser cannot read, by what breaks it: each to be refused with 400 and nothing stored. */
export function unreadableForms(n: number, size: number): [string, Buffer, HeaderChange[]][] {
  const boundary = boundaryOf(n)
  const csv = csvRow('hola')
  return [
    ['garbage bytes as a form', Buffer.from(Array.from({ length: 1 + (size % 4000) }, (_, i) => (i * 7919 + n) & 0xff)), [multipartType(boundary)]],
    ['a form without a boundary', formBody(boundary, [filePart(csv)]), [{ name: 'Content-Type', action: 'set', value: 'multipart/form-data' }]],
    ['an empty boundary', formBody(boundary, [filePart(csv)]), [{ name: 'Content-Type', action: 'set', value: 'multipart/form-data; boundary=' }]],
    ['a boundary that is not the body’s', formBody(boundary, [filePart(csv)]), [multipartType(`${boundary}x`)]],
    ['two boundaries', formBody(boundary, [filePart(csv)]), [{ name: 'Content-Type', action: 'set', value: `multipart/form-data; boundary=a; boundary=${boundary}` }]],
    ['a form cut in its file', formBody(boundary, [fieldPart('deckId', '1'), filePart(csv)], { closed: false }).subarray(0, -(1 + (size % 20))), [multipartType(boundary)]],
    ['a form cut in its part headers', Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Ty`), [multipartType(boundary)]],
    ['a form without its closing boundary', formBody(boundary, [filePart(Buffer.from(''))], { closed: false }), [multipartType(boundary)]],
    ['NUL in a part header', formBody(boundary, [{ ...filePart(csv), disposition: 'name="file"; filename="a\u0000b.csv"' }]), [multipartType(boundary)]],
    ['a part header over 16 KiB (a field name of 20,000 characters)', formBody(boundary, [fieldPart('n'.repeat(20_000), 'x')]), [multipartType(boundary)]],
  ]
}

/**
 * Uploads certain to be refused at once (4xx) with nothing stored: not a form, no `file`, an empty
 * one, a CSV file without a valid deck, many or long fields. Each is the learner's. (The forms of
 * unreadableForms are answered 500 today, see hostile-input-imports.test.ts: once they are refused,
 * they join these.)
 */
export const refusedUploads: fc.Arbitrary<Shot> = fc
  .tuple(fc.nat(), hostileString, fc.boolean())
  .chain(([n, text, chunked]) => {
    const boundary = boundaryOf(n)
    const csv = csvRow(text.replace(/[\r\n",]/g, ''))
    const cases: [string, Buffer, HeaderChange[]][] = [
      ['a boundary of 5000 characters', formBody('b'.repeat(5000), [filePart(csv)]), [multipartType('b'.repeat(5000))]],
      ['no file, only fields', formBody(boundary, [fieldPart('deckId', '1'), fieldPart('language', 'es')]), [multipartType(boundary)]],
      ['no file, 2000 fields', formBody(boundary, Array.from({ length: 2000 }, (_, i) => fieldPart(`f${i}`, 'x'))), [multipartType(boundary)]],
      ['no file, field names of 10,000 characters', formBody(boundary, [fieldPart('n'.repeat(10_000), 'x'), fieldPart(`file${'e'.repeat(10_000)}`, 'x')]), [multipartType(boundary)]],
      ['a file field not named file', formBody(boundary, [filePart(csv, 'a.csv', ['File', 'file[]', 'files', ' file', 'file ', 'x'.repeat(3000)][n % 6])]), [multipartType(boundary)]],
      ['file as a plain field', formBody(boundary, [fieldPart('file', csv.toString())]), [multipartType(boundary)]],
      ['an empty file', formBody(boundary, [fieldPart('deckId', '1'), filePart(Buffer.alloc(0))]), [multipartType(boundary)]],
      ['a CSV file without deckId', formBody(boundary, [filePart(csv)]), [multipartType(boundary)]],
      ['a CSV file with an odd deckId', formBody(boundary, [fieldPart('deckId', oddDeckIds[n % oddDeckIds.length] as string), filePart(csv)]), [multipartType(boundary)]],
      ['file twice (two CSV files), no deckId', formBody(boundary, [filePart(csv), filePart(csv, 'b.csv')]), [multipartType(boundary)]],
      ['a CSV file whose deckId comes 11th, past the 10 fields read', formBody(boundary, [...Array.from({ length: 10 }, (_, i) => fieldPart(`x${i}`, 'y')), fieldPart('deckId', '1'), filePart(csv)]), [multipartType(boundary)]],
      ['a deckId of 2000 characters (cut to 1000)', formBody(boundary, [fieldPart('deckId', '1'.repeat(2000)), filePart(csv)]), [multipartType(boundary)]],
      ['a filename of 5000 characters, no deckId', formBody(boundary, [{ ...filePart(csv), disposition: `name="file"; filename="${'a'.repeat(5000)}.csv"` }]), [multipartType(boundary)]],
      ['a filename with CRLF (a header injected), no deckId', formBody(boundary, [{ ...filePart(csv), disposition: 'name="file"; filename="a\r\nX-Injected: 1.csv"' }]), [multipartType(boundary)]],
      ['a part without Content-Disposition', Buffer.from(`--${boundary}\r\nContent-Type: text/csv\r\n\r\n${csv.toString()}\r\n--${boundary}--\r\n`), [multipartType(boundary)]],
      ['the form as JSON', Buffer.from('{"file":"a,b"}'), []],
      ['the file as text/csv', csv, [{ name: 'Content-Type', action: 'set', value: 'text/csv' }]],
      ['a url-encoded form', Buffer.from(`file=${encodeURIComponent(csv.toString())}`), [{ name: 'Content-Type', action: 'set', value: 'application/x-www-form-urlencoded' }]],
      ['multipart/mixed', formBody(boundary, [filePart(csv)]), [{ name: 'Content-Type', action: 'set', value: `multipart/mixed; boundary=${boundary}` }]],
      ['no Content-Type', formBody(boundary, [filePart(csv)]), [{ name: 'Content-Type', action: 'remove' }]],
      ['a form with a charset of its own, no deckId', formBody(boundary, [fieldPart('_charset_', 'utf-16le'), filePart(csv)]), [{ name: 'Content-Type', action: 'set', value: `multipart/form-data; charset=utf-7; boundary=${boundary}` }]],
    ]
    return fc.constantFrom(...cases).map(([why, body, headers]) =>
      shot({ who: 'learner', method: 'POST', target: IMPORTS, body, chunked: chunked && body.length > 1, headers, why, refused: true }),
    )
  })

/** A visitor's or an administrator's upload of a well-formed file: refused too (401; an admin is a learner too, so only the visitor). */
export const visitorUploads: fc.Arbitrary<Shot> = fc.nat().map((n) => {
  const boundary = boundaryOf(n)
  return shot({
    who: 'visitor',
    method: 'POST',
    target: IMPORTS,
    body: formBody(boundary, [fieldPart('deckId', '1'), filePart(csvRow('hola'))]),
    headers: [multipartType(boundary)],
    why: 'a signed-out upload',
    refused: true,
  })
})

/** Import ids that name no import: not a UUID, almost one, or someone's that is not a job. */
export const oddImportIds: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '------------------------------------',
    '00000000-0000-0000-0000-00000000000',
    '00000000-0000-0000-0000-0000000000000',
    '00000000000000000000000000000000',
    '{00000000-0000-0000-0000-000000000000}',
    '00000000-0000-0000-0000-00000000000G',
    'x'.repeat(36),
    '%00'.repeat(12),
    '..%2F..%2Fdecks',
    '1',
    '-1',
    '%2e%2e',
    'undefined',
    '__proto__',
    "'%20OR%201=1--",
    '9'.repeat(400),
  ),
  fc.uuid().map((id) => id.toUpperCase()),
  fc.uuid().map((id) => `${id}%00`),
  fc.uuid(),
  hostileString.filter((s) => s.length > 0 && s.length < 200).map((s) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
)

/** Media hashes that name no file: wrong length, wrong alphabet, encodings, someone else's. */
export const oddMediaHashes: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'A'.repeat(43),
    'A'.repeat(42),
    'A'.repeat(44),
    `${'A'.repeat(42)}=`,
    `${'A'.repeat(42)}+`,
    `${'A'.repeat(42)}%2F`,
    `${'A'.repeat(42)}%00`,
    '..%2F..%2F..%2Fetc%2Fpasswd',
    '%2e%2e',
    '0',
    '-',
    '_'.repeat(43),
    'x'.repeat(5000),
    '%E2%80%AE'.repeat(10),
  ),
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('hex')),
  hostileString.filter((s) => s.length > 0 && s.length < 200).map((s) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
)

/** The image of smallPackage's first note. */
export const smallPackageImage = distinctPng(0x5eed)

/** A small package every hostile one is a variation of: one deck, two notes, a review, an image. */
export function smallPackage(format: PackageSpec['format'], hostile?: PackageSpec['hostile']): PackageSpec {
  const created = Math.floor(Date.now() / 1000) - 30 * 86_400
  return {
    format,
    created,
    decks: [{ id: 7, name: 'Hostile' }],
    noteTypes: [stock.basic],
    notes: [
      { id: 1, guid: 'h-1', noteTypeId: stock.basic.id, fields: ['uno<img src="one.png">', 'one'] },
      { id: 2, guid: 'h-2', noteTypeId: stock.basic.id, fields: ['dos', 'two'] },
    ],
    cards: [
      { id: 10, noteId: 1, deckId: 7, type: 2, queue: 2, due: 40, interval: 5, factor: 2500, reps: 1 },
      { id: 20, noteId: 2, deckId: 7 },
    ],
    reviews: [{ id: (created + 86_400) * 1000, cardId: 10, ease: 3, interval: 5, lastInterval: 0, factor: 2500, time: 3000, type: 0 }],
    media: [{ name: 'one.png', data: smallPackageImage }],
    ...(hostile ? { hostile } : {}),
  }
}

/**
 * Packages broken on purpose (the test writer's `hostile` options): each one's import must fail
 * (`fails`), or, where the reader ignores what is hostile (entries it does not know, a collection
 * left in WAL mode), import as the package it otherwise is.
 */
const hostilePackages: { why: string; spec: PackageSpec; fails: boolean }[] = [
  { why: 'a declared size that lies (small)', spec: smallPackage('anki21', { declaredSize: { entry: 'collection.anki21', size: 10 } }), fails: true },
  { why: 'a declared size of 4 GB', spec: smallPackage('anki2', { declaredSize: { entry: 'collection.anki2', size: 0xffffffff } }), fails: true },
  { why: 'a zstd bomb as the collection', spec: smallPackage('anki21b', { zstdBomb: { part: 'collection', bytes: 3 * 1024 ** 3 } }), fails: true },
  { why: 'a zstd bomb as the media list', spec: smallPackage('anki21b', { zstdBomb: { part: 'media list', bytes: 3 * 1024 ** 3 } }), fails: true },
  { why: 'a second collection, 64 MiB of zeros deflated', spec: smallPackage('anki2', { zipBomb: { name: 'collection.anki2', bytes: 64 * 1024 ** 2 } }), fails: true },
  { why: 'the collection twice', spec: smallPackage('anki2', { extraEntries: [{ name: 'collection.anki2', data: Buffer.from('SQLite format 3\u0000') }] }), fails: true },
  { why: 'a collection that is not SQLite', spec: smallPackage('anki2', { collectionBytes: Buffer.from('not a database, only text that goes on') }), fails: true },
  { why: 'no collection', spec: smallPackage('anki2', { omitCollection: true }), fails: true },
  { why: 'a newer Anki (meta 99)', spec: smallPackage('anki21b', { metaVersion: 99 }), fails: true },
  { why: 'a collection version 99', spec: smallPackage('anki2', { colVersion: 99 }), fails: true },
  { why: 'a media list that is not JSON', spec: smallPackage('anki21', { mediaList: Buffer.from('{"0": ') }), fails: true },
  { why: 'a media list naming ../evil', spec: smallPackage('anki2', { mediaList: Buffer.from('{"0": "../../evil.png"}') }), fails: true },
  { why: 'a media list that is not protobuf', spec: smallPackage('anki21b', { mediaList: Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]) }), fails: true },
  { why: 'media of a size other than the list says', spec: smallPackage('anki21b', { mediaLie: 'size' }), fails: true },
  { why: 'media of a SHA-1 other than the list says', spec: smallPackage('anki21b', { mediaLie: 'sha1' }), fails: true },
  { why: 'entries named ../evil, /etc/passwd and C:\\x (ignored)', spec: smallPackage('anki21', { extraEntries: ['../evil', '/etc/passwd', 'C:\\x', '..\\..\\x'].map((name) => ({ name, data: Buffer.from('x') })) }), fails: false },
  { why: 'a collection left in WAL mode', spec: smallPackage('anki2', { wal: true }), fails: false },
]

/** Writes every hostile package, for shots to carry: name → bytes. */
export async function writeHostilePackages(): Promise<{ why: string; bytes: Buffer; fails: boolean }[]> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'lingua-hostile-packages-'))
  try {
    const out: { why: string; bytes: Buffer; fails: boolean }[] = []
    for (const [index, { why, spec, fails }] of hostilePackages.entries()) {
      const file = path.join(folder, `${index}.apkg`)
      await writeAnkiPackage(file, spec)
      out.push({ why, bytes: await readFile(file), fails })
    }
    return out
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

/** CSV files with what spreadsheets and databases choke on, for a deck of the learner's. */
export const hostileCsvFiles: fc.Arbitrary<{ why: string; bytes: Buffer }> = fc.oneof(
  fc.tuple(hostileString, fc.nat(30)).map(([text, at]) => ({
    why: 'NUL in a row',
    bytes: Buffer.from(`${csvHeader}\nes,${text.slice(0, at)}\u0000${text.slice(at)},a,б,,\n`.replace(/\r/g, '')),
  })),
  fc.constantFrom('=1+1', '+cmd|" /C calc"!A0', '-2+3', '@SUM(1+1)*cmd|" /C calc"!A0', '=HYPERLINK("http://evil.example","x")', '\t=1', '\r=1').map((formula) => ({
    why: `a formula (${JSON.stringify(formula)})`,
    bytes: Buffer.from(`${csvHeader}\nes,"${formula.replace(/"/g, '""')}","${formula.replace(/"/g, '""')}",б,,\n`),
  })),
  fc.integer({ min: 70_000, max: 2_000_000 }).map((length) => ({ why: `a line of ${length} characters`, bytes: Buffer.from(`${csvHeader}\nes,${'x'.repeat(length)},a,б,,\n`) })),
  fc.integer({ min: 1, max: 200_000 }).map((length) => ({ why: `an unclosed quote over ${length} characters`, bytes: Buffer.from(`${csvHeader}\nes,"${'y'.repeat(length)},a,б,,\n`) })),
  fc.uint8Array({ minLength: 1, maxLength: 3000 }).map((bytes) => ({ why: 'random bytes', bytes: Buffer.concat([Buffer.from(`${csvHeader}\n`), Buffer.from(bytes)]) })),
  fc.constantFrom(Buffer.from([0xff, 0xfe, 0x6c, 0x00]), Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from('\u0000'.repeat(100)), Buffer.from('PK\u0005\u0006')).map((bytes) => ({ why: 'a BOM, NULs or half a zip', bytes })),
  fc.integer({ min: 1000, max: 30_000 }).map((rows) => ({ why: `${rows} rows`, bytes: Buffer.from(`${csvHeader}\n${Array.from({ length: rows }, (_, i) => `es,w${i},a,б,,`).join('\n')}\n`) })),
  fc.constantFrom('a,b', csvHeader, `${csvHeader}\n`, `${csvHeader},extra\nes,a,b,c,,,z\n`, 'language;text;translation_en\nes;a;b\n').map((text) => ({ why: 'a header or shape that is not the words’', bytes: Buffer.from(text) })),
)

/** An upload of `file` (with a deckId when given) as the learner, accepted as a job (202). */
export function uploadShot(why: string, file: Buffer, filename: string, fields: Record<string, string>, n: number): Shot {
  const boundary = boundaryOf(n)
  const parts = [...Object.entries(fields).map(([name, value]) => fieldPart(name, value)), filePart(file, filename)]
  return shot({ who: 'learner', method: 'POST', target: IMPORTS, body: formBody(boundary, parts), headers: [multipartType(boundary)], why, refused: false })
}
