import { createWriteStream } from 'node:fs'
import { Writable, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
// The namespace, not the name: a named import of a Node 24 function stops an older Node at link
// time, before the server's one-line refusal of it (package-info.ts).
import zlib from 'node:zlib'
import yauzl from 'yauzl'
import { ByteCounter, type Budget, PackageError, damaged, maxEntries, tooLarge } from './limits'

/**
 * The zip side of a package: only the entries Anki writes are looked up, by their exact bytes; an
 * entry's name is never used as a path. Other entries (`../evil`, `/etc/x`, `a\b`) are ignored,
 * as Anki ignores them. Two entries of one known name are refused as damaged: which of them a
 * reader picks is where two readers of one file would disagree.
 */
const knownNames = new Set(['meta', 'media', 'collection.anki21b', 'collection.anki21', 'collection.anki2'])
/** Media entries are `0`, `1`, …, written without leading zeros. */
const mediaEntryName = /^(0|[1-9][0-9]{0,8})$/

export interface PackageZip {
  /** Known entries by name. */
  entries: Map<string, yauzl.Entry>
  /** Sum of every entry's declared uncompressed size. */
  declaredBytes: number
  file: yauzl.ZipFile
}

const isZipStart = (head: Buffer) => head.length >= 4 && head.readUInt32LE(0) === 0x04034b50

/** Opens the zip and lists its known entries (the directory only: no entry's data is read). */
export async function openPackageZip(path: string, head: Buffer): Promise<PackageZip> {
  let file: yauzl.ZipFile
  try {
    file = await yauzl.openPromise(path, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      validateEntrySizes: true,
    })
  } catch {
    // A file that starts as a zip but whose directory is unreadable is a cut-off or broken one.
    if (isZipStart(head)) throw damaged('the zip file is incomplete')
    throw new PackageError('not_a_package')
  }
  try {
    if (file.entryCount > maxEntries) throw tooLarge('too many files in the package')
    const entries = new Map<string, yauzl.Entry>()
    let declaredBytes = 0
    for await (const entry of file.eachEntry()) {
      declaredBytes += entry.uncompressedSize
      // decodeStrings: false leaves the raw bytes; known names are ASCII.
      const name = entry.fileNameRaw.toString('latin1')
      if (!knownNames.has(name) && !mediaEntryName.test(name)) continue
      if (entries.has(name)) throw damaged(`two parts are named ${name}`)
      entries.set(name, entry)
    }
    return { entries, declaredBytes, file }
  } catch (error) {
    file.close()
    if (error instanceof PackageError) throw error
    throw damaged('the zip directory is unreadable')
  }
}

export interface ReadOptions {
  /** The entry holds zstd data (Anki 2.1.50+'s collection, media list and media). */
  zstd: boolean
  /** At most this many bytes of this entry (after decompression). */
  maxBytes: number
  budget: Budget
}

/** Why a stream failed, as a PackageError. */
function asPackageError(error: unknown, what: string): PackageError {
  if (error instanceof PackageError) return error
  return damaged(what)
}

/**
 * Streams one entry's bytes into `sink`, decompressing zstd when asked, each byte counted against
 * the entry's maximum and the package's budget (the real size, whatever the entry declares).
 */
async function copyEntry(
  zip: PackageZip,
  entry: yauzl.Entry,
  options: ReadOptions,
  sink: Writable,
  what: string,
): Promise<void> {
  if (entry.isEncrypted()) throw damaged(`${what} is encrypted`)
  let source: Readable
  try {
    source = await zip.file.openReadStreamPromise(entry)
  } catch (error) {
    throw asPackageError(error, `${what} cannot be read`)
  }
  const counter = new ByteCounter(options.maxBytes, options.budget)
  try {
    if (options.zstd) await pipeline(source, zlib.createZstdDecompress(), counter, sink)
    else await pipeline(source, counter, sink)
  } catch (error) {
    throw asPackageError(error, `${what} cannot be read`)
  }
}

/** An entry's bytes in memory (for the small parts: meta, the media list, a media file). */
export async function readEntry(
  zip: PackageZip,
  entry: yauzl.Entry,
  options: ReadOptions,
  what: string,
): Promise<Buffer> {
  const chunks: Buffer[] = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk)
      done()
    },
  })
  await copyEntry(zip, entry, options, sink, what)
  return Buffer.concat(chunks)
}

/** An entry's bytes written to `path` (the collection). */
export async function writeEntry(
  zip: PackageZip,
  entry: yauzl.Entry,
  options: ReadOptions,
  path: string,
  what: string,
): Promise<void> {
  await copyEntry(zip, entry, options, createWriteStream(path, { flags: 'wx', mode: 0o600 }), what)
}
