import { createHash } from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { MEDIA_QUOTA_BYTES } from '@/shared/imports'
import { requireUser, signedInUser } from '@/server/auth/session'
import type { Db } from '@/server/db/client'
import { learnerMedia } from '@/server/db/schema'
import { pathParams } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { ApiError } from '@/server/http/errors'
import { undocumented } from '@/server/openapi/describe'
import { z } from 'zod/mini'

/**
 * A learner's media (images and sounds of their imported words): stored once by content hash,
 * typed by their bytes (never by the file's name or claim), served to their owner only.
 */

/** The type of a file by its first bytes; null for anything not an image or sound Lingua shows. */
function sniffMediaType(bytes: Buffer): string | null {
  const ascii = (from: number, to: number) => bytes.subarray(from, to).toString('latin1')
  if (bytes.length < 12) return null
  if (bytes[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png'
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  if (ascii(0, 4) === 'GIF8') return 'image/gif'
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp'
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'audio/wav'
  if (ascii(0, 4) === 'OggS') return 'audio/ogg'
  if (ascii(0, 4) === 'fLaC') return 'audio/flac'
  if (ascii(4, 8) === 'ftyp') return 'audio/mp4'
  if (ascii(0, 3) === 'ID3' || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) return 'audio/mpeg'
  return null
}

const mediaHash = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url')

/** Bytes of media the learner holds. */
export async function mediaHeld(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ bytes: sql<number>`coalesce(sum(${learnerMedia.size}), 0)`.mapWith(Number) }).from(learnerMedia).where(eq(learnerMedia.userId, userId))
  return row?.bytes ?? 0
}

export class MediaQuotaError extends Error {
  constructor() {
    super(`Your media are full: at most ${MEDIA_QUOTA_BYTES / 1024 / 1024} MB`)
  }
}

/**
 * Stores one file for the learner (once per content), or returns null for a type Lingua does not
 * show. Throws MediaQuotaError past the quota. `held` counts the learner's bytes; `added`, the
 * files this import stored (deleted again if it fails).
 */
export async function storeMedia(
  db: Db,
  userId: string,
  name: string,
  bytes: Buffer,
  held: { bytes: number; added: string[] },
): Promise<string | null> {
  const type = sniffMediaType(bytes)
  if (!type) return null
  const hash = mediaHash(bytes)
  const [known] = await db.select({ hash: learnerMedia.hash }).from(learnerMedia).where(and(eq(learnerMedia.userId, userId), eq(learnerMedia.hash, hash)))
  if (known) return hash
  if (held.bytes + bytes.length > MEDIA_QUOTA_BYTES) throw new MediaQuotaError()
  const stored = await db
    .insert(learnerMedia)
    .values({ userId, hash, type, size: bytes.length, name: name.slice(0, 200), data: bytes })
    .onConflictDoNothing()
    .returning({ hash: learnerMedia.hash })
  if (stored.length) held.added.push(hash)
  held.bytes += bytes.length
  return hash
}

/** Deletes the media an import added before it failed: a refused import leaves nothing. */
export async function forgetMedia(db: Db, userId: string, hashes: string[]): Promise<void> {
  if (hashes.length) await db.delete(learnerMedia).where(and(eq(learnerMedia.userId, userId), inArray(learnerMedia.hash, hashes)))
}

const notFound = () => new ApiError('not_found', 'Not found.')

/** `GET /api/me/media/{hash}`: the owner's file, with its sniffed type, never run as a page. */
export function mediaRoutes(db: Db) {
  return new Hono<AppEnv>().get('/:hash', undocumented, requireUser, pathParams(z.object({ hash: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/)) }), notFound), async (c) => {
    const [row] = await db
      .select({ type: learnerMedia.type, data: learnerMedia.data })
      .from(learnerMedia)
      .where(and(eq(learnerMedia.userId, signedInUser(c).id), eq(learnerMedia.hash, c.req.valid('param').hash)))
    if (!row) throw notFound()
    return c.body(new Uint8Array(row.data), 200, {
      'Content-Type': row.type,
      'Content-Length': String(row.data.length),
      // Private (the owner's), and one URL names one content: kept a year by the browser alone.
      'Cache-Control': 'private, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cross-Origin-Resource-Policy': 'same-origin',
    })
  })
}
