import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'vitest'
import { type ExitResult, freePort, projectRoot, serverEntry, spawnNodeServer, waitReady } from '../../scripts/lib/server.mjs'
import { createTestDatabase, type DatabaseTarget, type TestDatabase } from './database'

export { projectRoot }

/** Body of the inline script of the fixture page; whitespace included, as CSP hashes it. */
export const fixtureInlineScript = `
      document.documentElement.dataset.theme = localStorage.getItem('theme') || 'light'
    `
export const fixtureAssetPath = '/assets/app-abc123.js'
export const fixtureIndexHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Lingua</title>
    <script>${fixtureInlineScript}</script>
    <script type="module" crossorigin src="${fixtureAssetPath}"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`

export interface ServerOptions {
  /**
   * Extra environment, winning over the defaults: a free PORT, HOST=127.0.0.1, NODE_ENV=test, APP_URL
   * (http://127.0.0.1:PORT),
   * LOG_LEVEL=info, CLIENT_DIR, and a fresh temporary DATA_DIR unless DATABASE_URL or DATA_DIR is given.
   */
  env?: Record<string, string>
  /** Built client to serve (e.g. `dist/client`); default: a small fixture with one hashed asset. */
  clientDir?: string
  /** `postgres` runs the server on a fresh database of TEST_DATABASE_URL, dropped on stop. */
  database?: DatabaseTarget
}

/** What a test needs of a server, whether it runs in a process of its own or in the test's. */
export interface TestServer {
  url: string
  port: number
  /** Every line of its JSON log (and, of a process, of its stdout and stderr), in arrival order. */
  logs: string[]
  clientDir: string
  /** The PGlite folder, when the server runs on PGlite. */
  dataDir: string | undefined
  /** The PostgreSQL database created for this server, if any. */
  database: TestDatabase | undefined
  /** Stops the server and removes what the helper created. */
  stop(): Promise<unknown>
}

export interface ServerProcess extends TestServer {
  /** Only the lines of stderr. */
  stderr: string[]
  process: ChildProcess
  /** performance.now() right before the spawn. */
  spawnedAt: number
  /** Resolves once the process has exited and its output is read. */
  exited: Promise<ExitResult>
  /** Sends the signal, waits for the exit (SIGKILL after 20 s) and removes what the helper created. */
  stop(signal?: NodeJS.Signals): Promise<ExitResult>
}

const running = new Set<TestServer>()

/** Stops every server still running (tests/helpers/api-setup.ts does it after each test file). */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map((server) => server.stop()))
}

/** Counts a server among those stopAllServers stops, until `untrack`. */
export function track(server: TestServer): void {
  running.add(server)
}

export function untrack(server: TestServer): void {
  running.delete(server)
}

async function createFixtureClient(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lingua-client-'))
  await mkdir(path.join(dir, 'assets'))
  await writeFile(path.join(dir, 'index.html'), fixtureIndexHtml)
  await writeFile(path.join(dir, fixtureAssetPath), 'console.log("app")\n')
  return dir
}

/** What a server of the tests runs with: its environment, and the folders and database made for it. */
export async function prepareServer(options: ServerOptions) {
  const cleanups: (() => Promise<void>)[] = []
  const env = { ...options.env }

  let database: TestDatabase | undefined
  if (options.database === 'postgres' && !env.DATABASE_URL) {
    const created = await createTestDatabase()
    database = created
    env.DATABASE_URL = created.url
    cleanups.push(() => created.drop())
  }
  let dataDir = env.DATA_DIR
  if (!env.DATABASE_URL && !dataDir) {
    const created = await mkdtemp(path.join(os.tmpdir(), 'lingua-data-'))
    dataDir = created
    cleanups.push(() => rm(created, { recursive: true, force: true }))
  }
  let clientDir = options.clientDir
  if (!clientDir) {
    const created = await createFixtureClient()
    clientDir = created
    cleanups.push(() => rm(created, { recursive: true, force: true }))
  }

  const port = env.PORT && /^\d+$/.test(env.PORT) ? Number(env.PORT) : await freePort()
  return {
    port,
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      // The address the tests call: better-auth refuses requests and links of another origin.
      APP_URL: `http://127.0.0.1:${port}`,
      CLIENT_DIR: clientDir,
      ...(dataDir ? { DATA_DIR: dataDir } : {}),
      ...env,
    },
    dataDir,
    clientDir,
    database,
    cleanUp: async () => {
      for (const cleanup of cleanups.reverse()) await cleanup()
    },
  }
}

/** Starts `node dist/server/main.js` without waiting for it to be ready. */
export async function spawnServer(options: ServerOptions = {}): Promise<ServerProcess> {
  if (!existsSync(serverEntry)) {
    throw new Error(
      `${path.relative(projectRoot, serverEntry)} is missing: run \`npm run build\` (or \`npx vite build --config vite.server.config.ts\`) before the API tests`,
    )
  }
  const { port, env, dataDir, clientDir, database, cleanUp } = await prepareServer(options)
  const child = spawnNodeServer({ port, env })

  let stopping: Promise<ExitResult> | undefined
  const server: ServerProcess = {
    url: child.url,
    port,
    logs: child.output,
    stderr: child.stderr,
    process: child.child,
    spawnedAt: child.spawnedAt,
    clientDir,
    dataDir,
    database,
    exited: child.exited,
    stop(signal: NodeJS.Signals = 'SIGTERM') {
      stopping ??= (async () => {
        try {
          return await child.stop({ signal })
        } finally {
          running.delete(server)
          await cleanUp()
        }
      })()
      return stopping
    },
  }
  running.add(server)
  return server
}

/** Starts the server and waits until GET /api/ready answers 200. */
export async function startServer(options: ServerOptions = {}): Promise<ServerProcess> {
  const server = await spawnServer(options)
  try {
    await waitReady({ ...server, output: server.logs }, { timeoutMs: 30_000 })
  } catch (error) {
    await server.stop('SIGKILL')
    throw error
  }
  return server
}

export type LogEntry = Record<string, unknown> & { msg?: string; requestId?: string }

/** The JSON lines of the server's output. */
export function jsonLogs(server: TestServer): LogEntry[] {
  return server.logs.flatMap((line) => {
    try {
      const value = JSON.parse(line) as LogEntry | null
      return typeof value === 'object' && value !== null ? [value] : []
    } catch {
      return []
    }
  })
}

/** Waits until a log entry matches; output arrives asynchronously from the child process. */
export async function waitForLog(
  server: TestServer,
  matches: (entry: LogEntry) => boolean,
  timeoutMs = 10_000,
): Promise<LogEntry> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = jsonLogs(server).find(matches)
    if (found) return found
    if (Date.now() > deadline) {
      throw new Error(
        `No matching log line within ${timeoutMs} ms. Output:\n${server.logs.join('\n')}`,
      )
    }
    await sleep(25)
  }
}

/**
 * Asserts the API's one error shape, `{ error: { code, message, fields? } }`, as JSON with the
 * given status, and returns the error.
 */
export async function expectApiError(
  response: Response,
  status: number,
  code: string,
): Promise<{ code: string; message: string; fields?: Record<string, string[]> }> {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/json\b/)
  const body = JSON.parse(text) as {
    error: { code: string; message: string; fields?: Record<string, string[]> }
  }
  expect(Object.keys(body)).toEqual(['error'])
  expect(body.error.code).toBe(code)
  expect(typeof body.error.message).toBe('string')
  expect(body.error.message.length).toBeGreaterThan(0)
  for (const key of Object.keys(body.error)) expect(['code', 'message', 'fields']).toContain(key)
  if (body.error.fields !== undefined) {
    for (const messages of Object.values(body.error.fields)) {
      expect(messages.length).toBeGreaterThan(0)
      for (const message of messages) expect(typeof message).toBe('string')
    }
  }
  return body.error
}

/**
 * A request written by hand with node:http, for what fetch cannot do: a chunked body sent piece
 * by piece. `continued` resolves when the server has read the headers (100 Continue), i.e. once
 * the request is in flight on the server.
 */
export function openUpload(
  server: TestServer,
  options: { method?: string; path: string; headers?: Record<string, string> },
) {
  const request = http.request(`${server.url}${options.path}`, {
    method: options.method ?? 'POST',
    agent: false,
    headers: { expect: '100-continue', ...options.headers },
  })
  const continued = new Promise<void>((resolve, reject) => {
    request.once('continue', resolve)
    request.once('error', reject)
  })
  const response = new Promise<Response>((resolve, reject) => {
    request.on('error', reject)
    request.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => {
        const headers = new Headers()
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of [value ?? []].flat()) headers.append(name, one)
        }
        const status = res.statusCode ?? 0
        const body = [204, 205, 304].includes(status) ? null : Buffer.concat(chunks)
        resolve(new Response(body, { status, headers }))
      })
    })
  })
  // Rejections surface where the test awaits; not as unhandled ones when it awaits the other first.
  continued.catch(() => {})
  response.catch(() => {})
  request.flushHeaders()
  return { request, continued, response }
}

/** Asserts the status of a successful answer (showing the body when it differs) and parses its JSON. */
export async function expectJson<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/json\b/)
  return JSON.parse(text) as T
}
