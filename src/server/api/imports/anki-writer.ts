import type { ErrorCode } from '@/shared/errors'
import { ApiError } from '@/server/http/errors'
import { forkChild } from '@/server/jobs/child-process'
import type { Settings } from '@/server/api/practice/settings'
import type { AnkiPlan } from './anki-import'
import { IMPORT_CHILD_FLAGS } from './anki-planner'
import type { ImportResult } from './write'

/**
 * On PostgreSQL an Anki package's plan is written by a process of its own (anki-writer-child.ts),
 * on a connection of its own, in the one transaction write.ts makes (docs/decisions/0033-import-jobs.md).
 * The write reads hundreds of thousands of reviews from the spill file, a batch at a time; in the
 * server's heap each batch outlived a young collection while its statements ran, and V8 let the
 * old generation fill with them (+130 MB) and its young one grow (+64 MB) before collecting. Here
 * the heap is small and bounded, collected as it goes, and given back whole at the end. The
 * embedded PGlite is the server's own: there the server writes (one connection, in its process).
 */

export interface WriterInput {
  databaseUrl: string
  job: { id: string; userId: string }
  instanceId: string
  spillFile: string
  plan: AnkiPlan
  language: string
  settings: Settings
  /** Epoch ms. */
  now: number
}

export type WriterMessage = { type: 'done'; result: ImportResult } | { type: 'failed'; code: ErrorCode | undefined; message: string }

/**
 * The writer's heap (V8's old generation), MB: what it holds live is the notes' outline and their
 * ids (50,000 notes at most, a few MB) and one batch of the spill file.
 */
const WRITER_HEAP_MB = 64

export function writeInChild(input: WriterInput): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const { child: writer, lastWords } = forkChild(import.meta.url, { source: 'anki-writer-child.ts', bundled: 'import-writer' }, [
      `--max-old-space-size=${WRITER_HEAP_MB}`,
      ...IMPORT_CHILD_FLAGS,
    ])
    let outcome: WriterMessage | undefined
    writer.on('message', (message: WriterMessage) => {
      outcome = message
    })
    writer.on('error', reject)
    // 'close': its message has come too.
    writer.on('close', (code, signal) => {
      if (outcome?.type === 'done') resolve(outcome.result)
      // The write's refusals (decks_full, cards_full, not_found) are the learner's, as in the server.
      else if (outcome?.type === 'failed') reject(outcome.code ? new ApiError(outcome.code, outcome.message) : new Error(outcome.message))
      else reject(new Error(`The import writer stopped (${signal ?? `code ${code}`}): ${lastWords().trim().slice(-300)}`))
    })
    writer.send({ input })
  })
}
