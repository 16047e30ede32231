import pino from 'pino'
import { openPostgres } from '@/server/db/postgres'
import { ApiError } from '@/server/http/errors'
import { endWithParent, sendToParent } from '@/server/jobs/child-process'
import type { WriterInput, WriterMessage } from './anki-writer'
import { readSpill } from './spill'
import { claimedBy } from './worker'
import { type PlannedNote, writeImport } from './write'

/**
 * The writer's process (anki-writer.ts starts it and sends it its input): writes the plan from the
 * spill file on a connection of its own, in write.ts's one transaction, then answers and ends. The
 * server gone first (killed mid-import), it ends at once: its connection closes and PostgreSQL
 * rolls the transaction back.
 */
const finish = endWithParent('anki-writer-child.ts')
const send = (message: WriterMessage) => sendToParent(message)

async function write(input: WriterInput): Promise<void> {
  const database = openPostgres(input.databaseUrl, pino({ level: 'warn' }, pino.destination(2)))
  try {
    const context = { job: input.job, stillMine: claimedBy(input.job.id, input.instanceId) }
    const plan = { ...input.plan, notes: readSpill<PlannedNote>(input.spillFile), language: input.language }
    const result = await writeImport(database.db, context, plan, input.settings, new Date(input.now))
    await send({ type: 'done', result })
  } catch (error) {
    await send({
      type: 'failed',
      code: error instanceof ApiError ? error.code : undefined,
      message: error instanceof Error ? error.message : String(error),
    })
  } finally {
    await database.close()
    finish()
    process.disconnect()
  }
}

process.once('message', (message: { input: WriterInput }) => void write(message.input))
