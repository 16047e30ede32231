import { type ChildProcess, fork } from 'node:child_process'

/**
 * The server's child processes (an Anki package's planner and writer, the memory model's fitter):
 * work that would hold up the event loop, or grow the server's heap, done in a process of its own
 * that gives all its memory back when it ends. Messages go both ways over the IPC channel, with
 * V8's serialisation (dates, buffers and maps stay what they are).
 */

export interface ForkedChild {
  child: ChildProcess
  /** The end of what the child wrote to stderr (V8's last words when it ran out of heap). */
  lastWords: () => string
}

/**
 * Starts a child: `source` beside the caller (its `import.meta.url`) when the server runs from
 * source (`npm run dev`, the API tests: through tsx), else the bundle's entry `bundled`.js beside
 * it (the entries and their shared chunks are all in dist/server: vite.server.config.ts).
 */
export function forkChild(callerUrl: string, script: { source: string; bundled: string }, execArgv: string[] = []): ForkedChild {
  const fromSource = callerUrl.endsWith('.ts')
  const file = new URL(fromSource ? `./${script.source}` : `./${script.bundled}.js`, callerUrl)
  const child = fork(file, [], {
    execArgv: [...(fromSource ? ['--import', 'tsx'] : []), ...execArgv],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  })
  let words = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    words = (words + chunk.toString()).slice(-2000)
  })
  return { child, lastWords: () => words }
}

/** In a child: sends a message to the server; resolves once it is handed over (before the channel may close). */
export function sendToParent(message: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send) return reject(new Error('This process has no IPC channel'))
    process.send(message, undefined, {}, (error) => (error ? reject(error) : resolve()))
  })
}

/**
 * In a child: the process ends when the server goes before the work is done (it crashed, or was
 * killed mid-job: nobody waits for the answer, and a connection of the child's to the database
 * closes with it, its transaction rolled back). Call the returned function once done, before
 * disconnecting.
 */
export function endWithParent(name: string): () => void {
  if (!process.send) throw new Error(`${name} runs as a child process with an IPC channel`)
  let finished = false
  process.on('disconnect', () => {
    if (!finished) process.exit(1)
  })
  return () => {
    finished = true
  }
}
