import { forkChild } from '@/server/jobs/child-process'
/**
 * A memory model is fitted in a process of its own (memory-model-child.ts), as an Anki package is
 * planned (imports/anki-planner.ts): fsrs-rs trains on that process's thread pool, not the server's
 * (where password hashing and file reads wait their turn), and the log loss replays every card's
 * history with ts-fsrs, synchronous work that held the event loop up to half a second for 59,000
 * reviews even cut into 10 ms slices (docs/decisions/0037-memory-model.md). The history goes over
 * as three typed arrays, which the IPC channel copies without walking objects.
 */

/** A learner's history, review by review: the card (word id), the time (epoch ms) and the grade. */
export interface PackedHistory {
  cards: Int32Array
  times: Float64Array
  ratings: Uint8Array
}

export type FitMessage = { type: 'done'; parameters: number[]; before: number; after: number } | { type: 'failed'; message: string }

export interface FitOutcome {
  /** The fitted FSRS parameters (21, as ts-fsrs takes them). */
  parameters: number[]
  /** The log loss of the default parameters and of the fitted ones on the history. */
  before: number
  after: number
}

export function fitInChild(history: PackedHistory): Promise<FitOutcome> {
  return new Promise((resolve, reject) => {
    const { child: fitter, lastWords } = forkChild(import.meta.url, { source: 'memory-model-child.ts', bundled: 'memory-model-fitter' })
    let outcome: FitMessage | undefined
    fitter.on('message', (message: FitMessage) => {
      outcome = message
    })
    fitter.on('error', reject)
    // 'close': its message has come too.
    fitter.on('close', (code, signal) => {
      if (outcome?.type === 'done') resolve({ parameters: outcome.parameters, before: outcome.before, after: outcome.after })
      else if (outcome?.type === 'failed') reject(new Error(`The memory model could not be fitted: ${outcome.message}`))
      else reject(new Error(`The memory model's fitter stopped (${signal ?? `code ${code}`}): ${lastWords().trim().slice(-300)}`))
    })
    fitter.send({ history })
  })
}
