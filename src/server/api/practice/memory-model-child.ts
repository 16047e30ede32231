import { default_w } from 'ts-fsrs'
import type { PracticeGrade } from '@/shared/practice'
import { endWithParent, sendToParent } from '@/server/jobs/child-process'
import { type ReviewRecord, fitParameters, logLoss } from './memory-model'
import type { FitMessage, PackedHistory } from './memory-model-fitter'

/**
 * The memory model's fitting process (memory-model-fitter.ts starts it and sends it the history):
 * fits FSRS parameters to the history (fsrs-rs, on this process's thread pool) and measures the log
 * loss of the default and the fitted ones, then answers and ends. Nothing here holds the server's
 * event loop.
 */
const finish = endWithParent('memory-model-child.ts')
const send = (message: FitMessage) => sendToParent(message)

function unpack({ cards, times, ratings }: PackedHistory): ReviewRecord[] {
  const history: ReviewRecord[] = []
  for (let i = 0; i < cards.length; i++) {
    history.push({ cardKey: String(cards[i]), reviewedAt: new Date(times[i] ?? 0), rating: (ratings[i] ?? 1) as PracticeGrade })
  }
  return history
}

async function fit(packed: PackedHistory): Promise<void> {
  try {
    const history = unpack(packed)
    const { parameters } = await fitParameters(history)
    await send({ type: 'done', parameters, before: logLoss(history, default_w), after: logLoss(history, parameters) })
  } catch (error) {
    await send({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  } finally {
    finish()
    process.disconnect()
  }
}

process.once('message', (message: { history: PackedHistory }) => void fit(message.history))
