import type { Db } from '@/server/db/client'
import { forkChild } from '@/server/jobs/child-process'
import type { Settings } from '@/server/api/practice/settings'
import { PackageError, tooLarge } from './anki/limits'
import type { AnkiPlan } from './anki-import'
import { mediaHeld, storeMedia } from './media'

/**
 * An Anki package is planned in a process of its own (anki-planner-child.ts): reading it, cleaning
 * its fields and replaying every card's history is CPU work that would hold up the server's
 * requests; a heap of its own, bounded, keeps a package that holds more than expected from taking
 * the server's memory with it (refused as too large instead); and all its memory is given back
 * when it ends, before the write. It writes the notes to the spill file; the media it reads come
 * here to be stored, as the database is the server's.
 */

export interface PlannerInput {
  file: string
  spillFile: string
  expandedBytes: number
  settings: Pick<Settings, 'fsrsParameters' | 'timeZone'>
  /** Epoch ms. */
  now: number
  /** The process's heap (V8's old generation), at most (IMPORT_PLANNER_HEAP_MB). */
  heapMb: number
}

export type PlannerMessage =
  | { type: 'media'; id: number; name: string; bytes: Uint8Array }
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; plan: AnkiPlan }
  | { type: 'failed'; package: { code: PackageError['code']; what?: string } | undefined; message: string }

export interface PlannerReply {
  id: number
  hash: string | null
}

/**
 * V8's flags for an import's processes (this planner, anki-writer.ts): a young generation of 2 MB
 * (what a note makes is collected young) and a heap sized for memory rather than speed.
 */
export const IMPORT_CHILD_FLAGS = ['--max-semi-space-size=2', '--optimize-for-size']

/** V8's own last words when a heap limit is reached (it then aborts). */
const outOfMemory = /heap limit|heap out of memory/i

export interface PlannerContext {
  db: Db
  userId: string
  progress: (done: number, total: number) => Promise<void>
  /** The media files this import stored, by hash (deleted again if it fails). */
  addedMedia: string[]
}

export function planAnkiImport(input: PlannerInput, context: PlannerContext): Promise<AnkiPlan> {
  const { db, userId } = context
  return new Promise((resolve, reject) => {
    // A small young generation: what a note's replay makes is collected young; and V8 sized for
    // memory, not speed: the heap stays near what is live (the collection), not the several times
    // that V8 lets a busy heap grow to (its RSS at the end of a plan of 200,000 reviews: 140 MiB, not 207).
    const { child: planner, lastWords } = forkChild(import.meta.url, { source: 'anki-planner-child.ts', bundled: 'import-planner' }, [
      `--max-old-space-size=${input.heapMb}`,
      ...IMPORT_CHILD_FLAGS,
    ])
    let settled = false
    const end = (settle: () => void) => {
      if (settled) return
      settled = true
      settle()
      if (planner.exitCode === null) planner.kill('SIGKILL')
    }
    const fail = (error: unknown) => end(() => reject(error instanceof Error ? error : new Error(String(error))))
    // The planner's messages are handled one after the other, in order (each may write).
    let work: Promise<unknown> = Promise.resolve()
    const then = (step: () => unknown) => {
      work = work.then(step).catch(fail)
    }
    let held: { bytes: number; added: string[] } | undefined
    let planned: AnkiPlan | undefined
    planner.on('message', (message: PlannerMessage) => {
      switch (message.type) {
        case 'media':
          return then(async () => {
            held ??= { bytes: await mediaHeld(db, userId), added: context.addedMedia }
            const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength)
            const hash = await storeMedia(db, userId, message.name, bytes, held)
            if (!settled) planner.send({ id: message.id, hash } satisfies PlannerReply)
          })
        case 'progress':
          return then(() => context.progress(message.done, message.total))
        case 'done':
          // Settled once the process has ended: its memory is given back before the write.
          return then(() => {
            planned = message.plan
          })
        case 'failed':
          return then(() => fail(message.package ? new PackageError(message.package.code, message.package.what) : new Error(message.message)))
      }
    })
    planner.on('error', fail)
    // 'close', not 'exit': once its messages have all come too (the plan is the last).
    planner.on('close', (code, signal) =>
      then(() => {
        if (planned && code === 0) end(() => resolve(planned as AnkiPlan))
        else if (outOfMemory.test(lastWords())) fail(tooLarge('it holds more than Lingua reads at once'))
        else fail(new Error(`The import planner stopped (${signal ?? `code ${code}`}): ${lastWords().trim().slice(-300)}`))
      }),
    )
    planner.send({ input })
  })
}
