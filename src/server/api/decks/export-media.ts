import { Readable } from 'node:stream'
import { and, eq, inArray } from 'drizzle-orm'
import { SOUND_SRC_ATTRIBUTE, SOUND_TAG, escapeText } from '@/shared/card-field'
import type { Db } from '@/server/db/client'
import { learnerMedia } from '@/server/db/schema'

/**
 * The learner's media a deck's package carries: those its imported notes' cleaned fields show, by
 * their `/api/me/media/<hash>` URLs, each once under a name of its own (the one it had in the
 * package it came from, made unique), written as Anki writes media: `<img src="name">`, `[sound:name]`.
 */

export interface PackageMedia {
  hash: string
  /** Its file name in the package (what the fields refer to). */
  name: string
  /** Its zip entry: "0", "1", … */
  entry: string
  size: number
}

const mediaPath = /\/api\/me\/media\/([A-Za-z0-9_-]+)(?:\.[A-Za-z0-9]{1,10})?/g
const hashOf = (url: string): string | undefined => /^\/api\/me\/media\/([A-Za-z0-9_-]+)(?:\.[A-Za-z0-9]{1,10})?$/.exec(url)?.[1]
const BATCH = 1000

// Characters no file name of Anki's (or of any system's) may hold, and `[`/`]` that would end `[sound:…]`.
// eslint-disable-next-line no-control-regex
const unsafe = /[\u0000-\u001f\u007f/\\:*?"<>|[\]]/g

/** A name Anki accepts, unique in the package: `house.png`, then `house-2.png`… */
function uniqueName(wanted: string, hash: string, taken: Set<string>): string {
  let name = wanted.replace(unsafe, '_').trim().slice(0, 200)
  if (name === '' || name === '.' || name === '..') name = hash.slice(0, 16)
  const dot = name.lastIndexOf('.')
  const [base, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, '']
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}${extension}`
  taken.add(name.toLowerCase())
  return name
}

/** The media the fields show that the learner holds, in the order the fields first show them. */
export async function packageMedia(db: Db, userId: string, fields: Iterable<string>): Promise<Map<string, PackageMedia>> {
  const hashes = new Set<string>()
  for (const field of fields) for (const [, hash] of field.matchAll(mediaPath)) hashes.add(hash as string)
  const wanted = [...hashes]
  const found = new Map<string, { name: string; size: number }>()
  for (let at = 0; at < wanted.length; at += BATCH) {
    const rows = await db
      .select({ hash: learnerMedia.hash, name: learnerMedia.name, size: learnerMedia.size })
      .from(learnerMedia)
      .where(and(eq(learnerMedia.userId, userId), inArray(learnerMedia.hash, wanted.slice(at, at + BATCH))))
    for (const row of rows) found.set(row.hash, row)
  }
  const media = new Map<string, PackageMedia>()
  const taken = new Set<string>()
  for (const hash of wanted) {
    const row = found.get(hash)
    if (!row) continue
    media.set(hash, { hash, name: uniqueName(row.name, hash, taken), entry: String(media.size), size: row.size })
  }
  return media
}

/**
 * A cleaned field as Anki's HTML: its images' and sounds' URLs replaced by their names in the
 * package (one the learner no longer holds is left out).
 */
export function withPackageMedia(html: string, media: ReadonlyMap<string, PackageMedia>): string {
  const nameOf = (url: string) => {
    const hash = hashOf(url)
    return hash === undefined ? undefined : media.get(hash)?.name
  }
  const sound = new RegExp(`<${SOUND_TAG}\\s+${SOUND_SRC_ATTRIBUTE}="([^"]*)"\\s*>\\s*</${SOUND_TAG}>`, 'g')
  return html
    .replace(sound, (_whole, url: string) => {
      const name = nameOf(url)
      return name === undefined ? '' : `[sound:${escapeText(name)}]`
    })
    .replace(/<img\b([^>]*)>/g, (_whole, attributes: string) => {
      const src = /\bsrc="([^"]*)"/.exec(attributes)?.[1]
      const name = src === undefined ? undefined : nameOf(src)
      return name === undefined ? '' : `<img${attributes.replace(/\bsrc="[^"]*"/, `src="${escapeText(name)}"`)}>`
    })
}

/** One media file's bytes as a stream, read from the database when the zip reaches it. */
export async function mediaStream(db: Db, userId: string, hash: string): Promise<Readable> {
  const [row] = await db.select({ data: learnerMedia.data }).from(learnerMedia).where(and(eq(learnerMedia.userId, userId), eq(learnerMedia.hash, hash)))
  if (!row) throw new Error(`Media ${hash} is gone`)
  return Readable.from([Buffer.from(row.data)], { objectMode: false })
}
