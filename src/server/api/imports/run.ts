import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { IMPORT_MAX_EXPANDED_BYTES, type ImportErrorCode } from '@/shared/imports'
import type { Db } from '@/server/db/client'
import { ApiError } from '@/server/http/errors'
import { learningProfile } from '@/server/api/practice/queue'
import { readSettings } from '@/server/api/practice/settings'
import { PackageError } from './anki/limits'
import { planAnkiImport } from './anki-planner'
import { writeInChild } from './anki-writer'
import { MediaQuotaError, forgetMedia } from './media'
import { planCsvImport } from './csv-import'
import { type ImportOptions, announce, failJob, writeUpload } from './store'
import { InterruptedImport, type ImportJobRow, type JobContext } from './worker'
import { readSpill } from './spill'
import { type PlannedNote, writeImport } from './write'

/**
 * Runs one import job: its upload written to a private temp folder (removed whatever happens), read
 * as CSV or as an Anki package, planned (an Anki package in a process of its own, anki-planner.ts, its
 * notes into a file in that folder: spill.ts), then written all at once (write.ts; an Anki package's
 * on PostgreSQL by a process of its own too, anki-writer.ts).
 */
export function importRunner(db: Db, now: () => Date, options: { plannerHeapMb: number; databaseUrl: string | undefined }) {
  const { plannerHeapMb, databaseUrl } = options
  async function run(context: JobContext): Promise<void> {
    const { job } = context
    const folder = await mkdtemp(path.join(os.tmpdir(), 'lingua-import-'))
    try {
      const file = path.join(folder, 'upload')
      await writeUpload(db, job.id, file)
      const options = job.options as ImportOptions
      const [settings, profile] = await Promise.all([readSettings(db, job.userId), learningProfile(db, job.userId)])
      const language = options.language ?? profile?.language ?? 'en'
      const at = now()
      if (job.kind === 'csv') {
        const plan = await planCsvImport(db, job.userId, await readFile(file, 'utf8'), options.deckId ?? 0, language)
        await context.progress(plan.outline.length, plan.outline.length)
        await announce(db, job.userId)
        await writeImport(db, context, plan, settings, at)
      } else {
        const addedMedia: string[] = []
        try {
          const spillFile = path.join(folder, 'plan')
          const { fsrsParameters, timeZone } = settings
          const input = { file, spillFile, expandedBytes: IMPORT_MAX_EXPANDED_BYTES, settings: { fsrsParameters, timeZone }, now: at.getTime(), heapMb: plannerHeapMb }
          const plan = await planAnkiImport(input, { db, userId: job.userId, progress: context.progress, addedMedia })
          await announce(db, job.userId)
          if (databaseUrl) {
            const writer = { databaseUrl, job: { id: job.id, userId: job.userId }, instanceId: context.instanceId, spillFile }
            await writeInChild({ ...writer, plan, language, settings, now: at.getTime() })
          } else await writeImport(db, context, { ...plan, notes: readSpill<PlannedNote>(spillFile), language }, settings, at)
        } catch (error) {
          await forgetMedia(db, job.userId, addedMedia)
          throw error
        }
      }
      await announce(db, job.userId)
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  }

  /** The refusal of an import that failed, in the learner's words (ImportErrorCode). */
  function codeOf(error: unknown): { code: ImportErrorCode; what?: string } {
    if (error instanceof PackageError) return error.what ? { code: error.code, what: error.what } : { code: error.code }
    if (error instanceof MediaQuotaError) return { code: 'media_quota' }
    if (error instanceof InterruptedImport) return { code: 'interrupted' }
    if (error instanceof ApiError && (error.code === 'cards_full' || error.code === 'decks_full')) return { code: error.code }
    if (error instanceof ApiError && error.code === 'bad_request') return { code: 'damaged', what: error.message }
    return { code: 'damaged', what: 'it could not be read' }
  }

  async function fail(job: ImportJobRow, error: unknown): Promise<void> {
    const { code, what } = codeOf(error)
    await failJob(db, job, code, what)
  }

  return { run, fail }
}
