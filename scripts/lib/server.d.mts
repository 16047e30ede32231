import type { ChildProcess } from 'node:child_process'

export declare const projectRoot: string
export declare const serverEntry: string
export declare const clientDir: string

export declare function freePort(): Promise<number>

export interface ExitResult {
  code: number | null
  signal: NodeJS.Signals | null
}

export interface NodeServer {
  url: string
  port: number
  child: ChildProcess
  /** Every line of stdout and stderr, in arrival order. */
  output: string[]
  /** Only the lines of stderr. */
  stderr: string[]
  /** Resolves once the process has exited and its output is read. */
  exited: Promise<ExitResult>
  spawnedAt: number
  /** Sends the signal (SIGTERM), SIGKILL after `killAfterMs` (20 s); waits for the exit. */
  stop(options?: { signal?: NodeJS.Signals; killAfterMs?: number }): Promise<ExitResult>
}

export declare function spawnNodeServer(options: {
  port: number
  env?: Record<string, string | undefined>
  entry?: string
  cwd?: string
  nodeArgs?: string[]
}): NodeServer

export declare function waitReady(
  server: Pick<NodeServer, 'url' | 'output' | 'exited' | 'spawnedAt'>,
  options?: { timeoutMs?: number; intervalMs?: number },
): Promise<number>
