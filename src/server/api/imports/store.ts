import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import busboy from 'busboy'
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import { IMPORT_MAX_BYTES, type ImportErrorCode, type ImportJob } from '@/shared/imports'
import type { Db } from '@/server/db/client'
import { importJob, importUpload } from '@/server/db/schema'
import { publishEvent } from '@/server/events/bus'
import { ApiError } from '@/server/http/errors'
import type { ImportJobRow } from './worker'

/** An upload is kept in parts of this size until its import ends. */
const PART_BYTES = 1024 * 1024

export const importNotFound = () => new ApiError('not_found', 'Import not found')
const tooLarge = () => new ApiError('payload_too_large', 'This file is too large (at most 300 MB)')
const unreadableForm = () => new ApiError('bad_request', 'The form could not be read: send the file as multipart/form-data, in the field `file`.')

/** What the learner chose with the file: the deck of a CSV file, the language of new decks. */
export interface ImportOptions {
  deckId?: number
  language?: string
}

/** Reads the first 8 bytes: a zip (`PK\x03\x04`) is a package, anything else is taken for CSV. */
const isZip = (head: Buffer) => head.length >= 4 && head.readUInt32LE(0) === 0x04034b50

/**
 * Streams the multipart upload (`file`, and the fields `deckId`, `language`) into the
 * job's parts, never holding it whole, and queues the job. Refused (413) past 300 MB, with nothing
 * left stored.
 */
export async function receiveImport(db: Db, userId: string, request: Request): Promise<{ id: string }> {
  const type = request.headers.get('content-type') ?? ''
  if (!type.startsWith('multipart/form-data') || !request.body) throw new ApiError('unsupported_media_type', 'Send the file as multipart/form-data, in the field `file`.')
  const id = randomUUID()
  const fields: Record<string, string> = {}
  let fileName: string | null = null
  let size = 0
  let head = Buffer.alloc(0)
  // The parts are written one after another; after a failure, none more (the clean-up waits for the last).
  let writing = Promise.resolve()
  let stopped = false
  let parserFailed = false
  let parser: busboy.Busboy
  try {
    parser = busboy({ headers: { 'content-type': type }, limits: { files: 1, fileSize: IMPORT_MAX_BYTES, fields: 10, fieldSize: 1000 } })
  } catch {
    throw unreadableForm()
  }
  const done = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => {
      fields[name] = value
    })
    parser.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume()
        return
      }
      fileName = info.filename || 'file'
      let part = 0
      let pending: Buffer[] = []
      const flush = () => {
        const data = Buffer.concat(pending)
        pending = []
        if (data.length === 0) return writing
        writing = writing.then(async () => {
          if (stopped) throw new Error('The upload was abandoned')
          if (part === 0) await db.insert(importJob).values({ id, userId, kind: 'csv', fileName: fileName ?? 'file', size: 0, status: 'uploading' })
          await db.insert(importUpload).values({ jobId: id, part: part++, data })
        })
        return writing
      }
      let pendingBytes = 0
      const sink = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          size += chunk.length
          if (head.length < 8) head = Buffer.concat([head, chunk]).subarray(0, 8)
          pending.push(chunk)
          pendingBytes += chunk.length
          if (pendingBytes < PART_BYTES) return callback()
          pendingBytes = 0
          flush().then(() => callback(), callback)
        },
        final(callback) {
          flush().then(() => callback(), callback)
        },
      })
      stream.on('limit', () => reject(tooLarge()))
      pipeline(stream, sink).catch(reject)
      sink.on('finish', () => resolve())
    })
    parser.on('error', () => {
      parserFailed = true
      reject(unreadableForm())
    })
    parser.on('close', () => {
      if (fileName === null) reject(new ApiError('validation_failed', 'Send the file in the field `file`.', { file: ['Choose a file.'] }))
    })
  })
  const forget = async () => {
    stopped = true
    await writing.catch(() => {})
    await db.delete(importJob).where(eq(importJob.id, id))
  }
  try {
    await Promise.all([pipeline(Readable.fromWeb(request.body as never), parser), done])
  } catch (error) {
    await forget()
    throw error instanceof ApiError ? error : parserFailed ? unreadableForm() : error
  }
  if (size === 0) {
    await forget()
    throw new ApiError('validation_failed', 'The file is empty.', { file: ['The file is empty.'] })
  }
  const options: ImportOptions = {}
  if (/^\d{1,9}$/.test(fields.deckId ?? '')) options.deckId = Number(fields.deckId)
  if (/^[a-z]{2}$/.test(fields.language ?? '')) options.language = fields.language
  const kind = isZip(head) ? 'anki' : 'csv'
  if (kind === 'csv' && options.deckId === undefined) {
    await forget()
    throw new ApiError('validation_failed', 'A CSV file goes into one deck: choose it.', { deckId: ['Choose the deck to import into.'] })
  }
  await db
    .update(importJob)
    .set({ kind, size, options: { ...options }, status: 'queued', updatedAt: sql`now()` })
    .where(eq(importJob.id, id))
  await announce(db, userId)
  return { id }
}

/** Writes the job's upload to `file`, part by part. */
export async function writeUpload(db: Db, jobId: string, file: string): Promise<void> {
  const out = createWriteStream(file)
  try {
    for (let part = 0; ; part++) {
      const [row] = await db.select({ data: importUpload.data }).from(importUpload).where(and(eq(importUpload.jobId, jobId), eq(importUpload.part, part)))
      if (!row) break
      if (!out.write(row.data)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
    }
  } finally {
    await new Promise<void>((resolve, reject) => {
      out.once('error', reject)
      out.end(() => resolve())
    })
  }
}

export const announce = (db: Db, userId: string) => publishEvent(db, { type: 'practice', userId, data: { reason: 'import' } })

/** Ends a job as failed, with the refusal's code, if it is still the instance's that ran it; its upload goes. */
export async function failJob(db: Db, job: ImportJobRow, code: ImportErrorCode, what?: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [ended] = await tx
      .update(importJob)
      .set({ status: 'failed', error: what ? { code, what } : { code }, lockedBy: null, lockedUntil: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(importJob.id, job.id), eq(importJob.lockedBy, job.lockedBy ?? '')))
      .returning({ id: importJob.id })
    if (ended) await tx.delete(importUpload).where(eq(importUpload.jobId, job.id))
  })
  await announce(db, job.userId)
}

function toImportJob(row: ImportJobRow): ImportJob {
  const result = (row.result ?? {}) as Partial<ImportJob>
  return {
    id: row.id,
    kind: row.kind as ImportJob['kind'],
    fileName: row.fileName,
    status: row.status as ImportJob['status'],
    done: row.done,
    total: row.total,
    notes: result.notes ?? 0,
    cards: result.cards ?? 0,
    reviews: result.reviews ?? 0,
    media: result.media ?? 0,
    decks: result.decks ?? [],
    skipped: result.skipped ?? [],
    ...(row.error ? { error: row.error as ImportJob['error'] } : {}),
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  }
}

/** One of the learner's imports, or 404. */
export async function readImport(db: Db, userId: string, id: string): Promise<ImportJob> {
  if (!/^[0-9a-f-]{36}$/.test(id)) throw importNotFound()
  const [row] = await db.select().from(importJob).where(and(eq(importJob.id, id), eq(importJob.userId, userId)))
  if (!row || row.status === 'uploading') throw importNotFound()
  return toImportJob(row)
}

/** The learner's latest imports, newest first. */
export async function listImports(db: Db, userId: string): Promise<ImportJob[]> {
  const rows = await db.select().from(importJob).where(eq(importJob.userId, userId)).orderBy(desc(importJob.createdAt), asc(importJob.id)).limit(20)
  return rows.filter((row) => row.status !== 'uploading').map(toImportJob)
}
