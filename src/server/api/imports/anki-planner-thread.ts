import { type MessagePort, parentPort, workerData } from 'node:worker_threads'
import { PackageError, readAnkiPackage } from './anki/read'
import { planAnkiPackage } from './anki-import'
import type { PlannerInput, PlannerMessage, PlannerReply } from './anki-planner'
import { SpillWriter } from './spill'
import type { PlannedNote } from './write'

/**
 * The planner's thread (anki-planner.ts starts it): reads the package, plans its notes into the
 * spill file and asks the server's thread to store each media file, which holds the database.
 */
function threadPort(): MessagePort {
  if (!parentPort) throw new Error('anki-planner-thread.ts runs as a worker thread')
  return parentPort
}
const port = threadPort()
const input = workerData as PlannerInput
const send = (message: PlannerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer)

const waiting = new Map<number, (hash: string | null) => void>()
let asked = 0
port.on('message', (reply: PlannerReply) => {
  waiting.get(reply.id)?.(reply.hash)
  waiting.delete(reply.id)
})

function storeMedia(name: string, bytes: Buffer): Promise<string | null> {
  const id = ++asked
  // A copy of its own, handed over whole (a small read may share a pooled buffer).
  const own = new Uint8Array(bytes)
  send({ type: 'media', id, name, bytes: own }, [own.buffer])
  return new Promise((resolve) => waiting.set(id, resolve))
}

async function plan(): Promise<void> {
  const spill = new SpillWriter<PlannedNote>(input.spillFile)
  try {
    const pkg = await readAnkiPackage(input.file, { expandedBytes: input.expandedBytes })
    try {
      const planned = await planAnkiPackage(pkg, {
        settings: input.settings,
        now: new Date(input.now),
        progress: (done, total) => send({ type: 'progress', done, total }),
        storeMedia,
        spill,
      })
      send({ type: 'done', plan: planned })
    } finally {
      await pkg.close()
    }
  } catch (error) {
    send({
      type: 'failed',
      package: error instanceof PackageError ? { code: error.code, ...(error.what ? { what: error.what } : {}) } : undefined,
      message: error instanceof Error ? error.message : String(error),
    })
  } finally {
    await spill.close()
    port.close()
  }
}

void plan()
