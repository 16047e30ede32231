import { createHash } from 'node:crypto'
import { mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type yauzl from 'yauzl'
import { readCollectionFile } from './collection'
import { Budget, PackageError, type ReadLimits, damaged, defaultLimits, maxMediaListBytes, maxMetaBytes, tooLarge } from './limits'
import { decodeMediaEntries, decodeMetaVersion } from './proto'
import type { AnkiCollection, AnkiMedia } from './types'
import { type PackageZip, openPackageZip, readEntry, writeEntry } from './zip'

export { PackageError, type ReadLimits } from './limits'
export type * from './types'

/**
 * Reads an Anki package (.apkg, .colpkg) from a file that nobody vouches for: each of Anki's three
 * formats (collection.anki2 / collection.anki21 with a JSON media map and plain media; Anki
 * 2.1.50+'s zstd collection.anki21b with a protobuf `meta` and media list). Nothing is taken on
 * trust: only known entry names are read, every size is counted while streaming against the
 * package's expanded budget, the collection is opened read-only from a private temp folder that
 * is removed whatever happens, and media are streamed one at a time on demand.
 */
export interface AnkiPackage {
  collection: AnkiCollection
  /**
   * Streams one media file's bytes (decompressed when zstd), stopping with
   * PackageError('too_large'|'damaged') past `maxBytes` or the package's remaining expanded budget.
   */
  readMedia(media: AnkiMedia, maxBytes: number): Promise<Buffer>
  close(): Promise<void>
}

type Format = AnkiCollection['format']
const formatOfVersion: Record<number, Format> = { 1: 'anki2', 2: 'anki21', 3: 'anki21b' }
const collectionEntry: Record<Format, string> = {
  anki2: 'collection.anki2',
  anki21: 'collection.anki21',
  anki21b: 'collection.anki21b',
}

/** Anki refuses the same names (rslib's filename_is_safe); a name is only ever a label here. */
function isSafeMediaName(name: string): boolean {
  return (
    name.length > 0 &&
    Buffer.byteLength(name) <= 255 &&
    name !== '.' &&
    name !== '..' &&
    ![...name].some((char) => char === '/' || char === '\\' || char.charCodeAt(0) < 0x20 || char === '\u007f')
  )
}

async function readHead(file: string): Promise<Buffer> {
  try {
    const handle = await open(file, 'r')
    try {
      const head = Buffer.alloc(4)
      const { bytesRead } = await handle.read(head, 0, 4, 0)
      return head.subarray(0, bytesRead)
    } finally {
      await handle.close()
    }
  } catch {
    throw new PackageError('not_a_package')
  }
}

/** Which format: from `meta` when there is one (unknown versions are a newer Anki's), else by name. */
async function packageFormat(zip: PackageZip, budget: Budget): Promise<Format> {
  const meta = zip.entries.get('meta')
  if (meta) {
    const bytes = await readEntry(zip, meta, { zstd: false, maxBytes: maxMetaBytes, budget }, 'the package description')
    const format = formatOfVersion[decodeMetaVersion(bytes)]
    if (!format) throw new PackageError('newer_anki')
    if (!zip.entries.has(collectionEntry[format])) throw damaged('the collection is missing')
    return format
  }
  if (zip.entries.has('collection.anki21')) return 'anki21'
  if (zip.entries.has('collection.anki2')) return 'anki2'
  throw new PackageError('not_a_package')
}

/**
 * Writes the collection to `path` and checks it is an SQLite file. A collection left in WAL mode is
 * switched to a rollback journal in its header, so that it opens read-only without a -shm file.
 */
async function extractCollection(zip: PackageZip, format: Format, budget: Budget, path: string): Promise<void> {
  const entry = zip.entries.get(collectionEntry[format]) as yauzl.Entry
  const options = { zstd: format === 'anki21b', maxBytes: budget.limit, budget }
  await writeEntry(zip, entry, options, path, 'the collection')
  const handle = await open(path, 'r+')
  try {
    const header = Buffer.alloc(100)
    const { bytesRead } = await handle.read(header, 0, 100, 0)
    if (bytesRead < 100 || header.toString('latin1', 0, 16) !== 'SQLite format 3\u0000')
      throw damaged('the collection is not a database')
    if (header[18] === 2 || header[19] === 2) await handle.write(Buffer.from([1, 1]), 0, 2, 18)
  } finally {
    await handle.close()
  }
}

/** Legacy: JSON {"0": "name.jpg"}; Anki 2.1.50+: zstd MediaEntries, entry i in zip entry `i`. */
interface MediaList {
  media: AnkiMedia[]
  /** The SHA-1 each entry declares (Anki 2.1.50+). */
  sha1: Map<string, Uint8Array>
}

async function readMediaList(zip: PackageZip, format: Format, budget: Budget): Promise<MediaList> {
  const sha1 = new Map<string, Uint8Array>()
  const entry = zip.entries.get('media')
  if (!entry) return { media: [], sha1 }
  const latest = format === 'anki21b'
  const bytes = await readEntry(zip, entry, { zstd: latest, maxBytes: maxMediaListBytes, budget }, 'the media list')
  let media: AnkiMedia[]
  if (latest) {
    media = decodeMediaEntries(bytes).map((item, index) => {
      const entry = String(item.zipName ?? index)
      if (item.sha1.length === 20) sha1.set(entry, item.sha1)
      return { name: item.name, entry, size: item.size }
    })
  } else {
    let map: unknown
    try {
      map = JSON.parse(bytes.toString('utf8'))
    } catch {
      throw damaged('the media list is unreadable')
    }
    if (!map || typeof map !== 'object' || Array.isArray(map)) throw damaged('the media list is unreadable')
    media = Object.entries(map).map(([key, name]) => {
      if (typeof name !== 'string') throw damaged('the media list is unreadable')
      return { name, entry: key }
    })
    media.sort((a, b) => Number(a.entry) - Number(b.entry))
  }
  const names = new Set<string>()
  const kept: AnkiMedia[] = []
  let declared = 0
  for (const item of media) {
    if (!isSafeMediaName(item.name)) throw damaged('a media file has an unsafe name')
    if (!zip.entries.has(item.entry) || !/^\d+$/.test(item.entry)) throw damaged(`media file ${item.entry} is missing`)
    declared += item.size ?? 0
    // Two files of one name: the notes can only mean the first.
    if (names.has(item.name)) continue
    names.add(item.name)
    kept.push(item)
  }
  if (declared > budget.limit) throw tooLarge('the media expand past the limit')
  return { media: kept, sha1 }
}

export async function readAnkiPackage(file: string, limits?: Partial<ReadLimits>): Promise<AnkiPackage> {
  const { expandedBytes, reviews } = { ...defaultLimits, ...limits }
  const budget = new Budget(expandedBytes)
  const zip = await openPackageZip(file, await readHead(file))
  let collection: AnkiCollection
  let mediaSha1: Map<string, Uint8Array>
  try {
    if (zip.declaredBytes > expandedBytes) throw tooLarge('the package expands past its limit')
    const format = await packageFormat(zip, budget)
    const folder = await mkdtemp(join(tmpdir(), 'lingua-anki-'))
    try {
      const path = join(folder, 'collection.sqlite')
      await extractCollection(zip, format, budget, path)
      const content = await readCollectionFile(path, { reviews })
      const list = await readMediaList(zip, format, budget)
      collection = { format, ...content, media: list.media }
      mediaSha1 = list.sha1
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  } catch (error) {
    zip.file.close()
    throw error
  }
  const mediaEntries = new Map(collection.media.map((item) => [item.entry, { ...item }]))
  let closed = false
  return {
    collection,
    async readMedia(media, maxBytes) {
      if (closed) throw new Error('The package is closed')
      // The list as read, not as handed back: its declared size is the package's.
      const listed = mediaEntries.get(media.entry)
      const entry = zip.entries.get(media.entry)
      if (!entry || !listed) throw new Error(`No media entry ${media.entry} in this package`)
      const what = `media file ${listed.name}`
      if (listed.size !== undefined && listed.size > maxBytes) throw tooLarge(`${what} is larger than allowed`)
      const limit = Math.min(maxBytes, budget.remaining)
      const bytes = await readEntry(zip, entry, { zstd: collection.format === 'anki21b', maxBytes: limit, budget }, what)
      if (listed.size !== undefined && bytes.length !== listed.size) throw damaged(`${what} is not the size it claims`)
      const sha1 = mediaSha1.get(media.entry)
      if (sha1 && !createHash('sha1').update(bytes).digest().equals(Buffer.from(sha1))) throw damaged(`${what} is not what it claims`)
      return bytes
    },
    close() {
      if (!closed) zip.file.close()
      closed = true
      return Promise.resolve()
    },
  }
}
