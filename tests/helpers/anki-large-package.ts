import { deflateSync } from 'node:zlib'
import { type PackageSpec, stock, writeAnkiPackage } from './anki-package'

/**
 * A large Anki package for the crash test and the import bench: `notes` Basic notes in `decks`
 * decks, one card each, every card learnt with `reviews / notes` answers (Good) spread over the
 * year before `now`, and `images` small PNGs of different bytes, each shown by one note.
 */
export interface LargePackage {
  notes: number
  reviews: number
  images?: number
  decks?: number
  format?: PackageSpec['format']
  /** The moment the package is imported around (its history ends before it); default: now. */
  now?: Date
  /** The first note's number (ids and guids follow from it): packages that add to another. */
  firstNote?: number
  /** The share of learnt cards due yesterday (the others are due in 1 to 30 days); default 0. */
  dueShare?: number
  /** Each image's size, about (default: a few dozen bytes): filled with bytes that do not compress, as a photo's. */
  imageBytes?: number
}

const DAY = 86_400

/**
 * A valid PNG of `size`×1 grey pixels whose bytes differ with `seed`; with `padding`, an ancillary
 * private chunk (`prVt`, which readers skip) of that many pseudo-random bytes.
 */
export function distinctPng(seed: number, size = 8, padding = 0): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc(body), body.length + 4)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(1, 4)
  header.set([8, 0, 0, 0, 0], 8) // 8-bit greyscale
  // One scanline: filter byte 0, then the seed's bytes as pixels.
  const row = Buffer.alloc(size + 1)
  for (let i = 0; i < size; i++) row[i + 1] = (seed >> ((i % 4) * 8)) & 0xff
  // xorshift32 from the seed: bytes no compressor shrinks.
  const noise = Buffer.alloc(padding)
  let state = (seed * 2654435761) >>> 0 || 1
  for (let i = 0; i < padding; i++) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    noise[i] = state & 0xff
  }
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    ...(padding > 0 ? [chunk('prVt', noise)] : []),
    chunk('IDAT', deflateSync(row)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function largePackageSpec(options: LargePackage): PackageSpec {
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000)
  const created = now - 400 * DAY
  const deckCount = options.decks ?? 1
  const images = options.images ?? 0
  const perCard = Math.floor(options.reviews / options.notes)
  const extra = options.reviews - perCard * options.notes
  const decks = Array.from({ length: deckCount }, (_, i) => ({ id: 1000 + i, name: `Large::Deck ${i + 1}` }))
  const notes: NonNullable<PackageSpec['notes']> = []
  const cards: NonNullable<PackageSpec['cards']> = []
  const reviews: NonNullable<PackageSpec['reviews']> = []
  const first = options.firstNote ?? 0
  const dueShare = options.dueShare ?? 0
  for (let n = first; n < first + options.notes; n++) {
    const image = n - first < images ? `<img src="image-${n}.png">` : ''
    notes.push({ id: n + 1, guid: `large-${n}`, noteTypeId: stock.basic.id, fields: [`word ${n}${image}`, `meaning ${n}`], tags: [`t${n % 10}`] })
    const count = perCard + (n - first < extra ? 1 : 0)
    const cardId = 1_000_000 + n
    // Answered Good every ~30 days, the last about 130 days ago; due yesterday (dueShare) or in 1 to 30 days.
    for (let k = 0; k < count; k++) {
      // Unique ids (epoch milliseconds): the day, then the note's second within it.
      const at = (created + (1 + k * Math.floor(270 / Math.max(1, count))) * DAY + (n % DAY)) * 1000 + Math.floor(n / DAY)
      reviews.push({ id: at, cardId, ease: 3, interval: k === 0 ? 1 : 30, lastInterval: k === 0 ? 0 : 30, factor: 2500, time: 3000, type: k === 0 ? 0 : 1 })
    }
    const learnt = count > 0
    cards.push({
      id: cardId,
      noteId: n + 1,
      deckId: 1000 + (n % deckCount),
      type: learnt ? 2 : 0,
      queue: learnt ? 2 : 0,
      due: learnt ? (n % 1000 < dueShare * 1000 ? 400 - 1 : 400 + 1 + (n % 30)) : n,
      interval: learnt ? 30 : 0,
      factor: learnt ? 2500 : 0,
      reps: count,
      lapses: 0,
    })
  }
  return {
    format: options.format ?? 'anki21b',
    created,
    decks,
    noteTypes: [stock.basic],
    notes,
    cards,
    reviews,
    media: Array.from({ length: images }, (_, i) => ({ name: `image-${first + i}.png`, data: distinctPng(first + i + 1, 8, options.imageBytes ?? 0) })),
  }
}

/** Writes the package to `file` (see LargePackage). */
export async function writeLargePackage(file: string, options: LargePackage): Promise<void> {
  await writeAnkiPackage(file, largePackageSpec(options))
}
