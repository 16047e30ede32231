import { endWithParent, sendToParent } from '@/server/jobs/child-process'
import { REVIEW_PACKED_BYTES } from './anki/limits'
import { PackageError, readAnkiPackage } from './anki/read'
import { planAnkiPackage } from './anki-import'
import type { PlannerInput, PlannerMessage, PlannerReply } from './anki-planner'
import { SpillWriter } from './spill'
import type { PlannedNote } from './write'

/**
 * The planner's process (anki-planner.ts starts it, and sends it its input first): reads the
 * package, plans its notes into the spill file and asks the server to store each media file, as
 * the database is the server's.
 */
const finish = endWithParent('anki-planner-child.ts')
const send = (message: PlannerMessage) => sendToParent(message)

const waiting = new Map<number, (hash: string | null) => void>()
let asked = 0

function storeMedia(name: string, bytes: Buffer): Promise<string | null> {
  const id = ++asked
  return new Promise((resolve, reject) => {
    waiting.set(id, resolve)
    send({ type: 'media', id, name, bytes }).catch(reject)
  })
}

async function plan(input: PlannerInput): Promise<void> {
  const spill = new SpillWriter<PlannedNote>(input.spillFile)
  try {
    // The packed reviews, outside V8's heap, take at most what the heap may (IMPORT_PLANNER_HEAP_MB).
    const reviews = Math.floor((input.heapMb * 1024 * 1024) / REVIEW_PACKED_BYTES)
    const pkg = await readAnkiPackage(input.file, { expandedBytes: input.expandedBytes, reviews })
    try {
      const planned = await planAnkiPackage(pkg, {
        settings: input.settings,
        now: new Date(input.now),
        progress: (done, total) => void send({ type: 'progress', done, total }),
        storeMedia,
        spill,
      })
      await send({ type: 'done', plan: planned })
    } finally {
      await pkg.close()
    }
  } catch (error) {
    await send({
      type: 'failed',
      package: error instanceof PackageError ? { code: error.code, ...(error.what ? { what: error.what } : {}) } : undefined,
      message: error instanceof Error ? error.message : String(error),
    })
  } finally {
    await spill.close()
    finish()
    process.disconnect()
  }
}

process.on('message', (message: { input: PlannerInput } | PlannerReply) => {
  if ('input' in message) {
    void plan(message.input)
    return
  }
  waiting.get(message.id)?.(message.hash)
  waiting.delete(message.id)
})
