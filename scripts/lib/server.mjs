// Starting the built server (`node dist/server/main.js`), for the tests, the benchmarks and the
// scripts alike: a free port, the process with only the environment it is given, its output line
// by line, readiness (GET /api/ready), and a stop that always ends it.
import { spawn } from 'node:child_process'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

export const projectRoot = path.resolve(import.meta.dirname, '../..')
export const serverEntry = path.join(projectRoot, 'dist/server/main.js')
export const clientDir = path.join(projectRoot, 'dist/client')

/** A TCP port nothing listens on right now (on 127.0.0.1). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.unref()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

// Last resort when this process ends without stopping them (an error, a worker going away).
const children = new Set()
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL')
})

/**
 * Spawns `node [nodeArgs] entry` in `cwd`, listening on HOST=127.0.0.1 and PORT=`port`, with PATH,
 * TMPDIR and `env` only: the caller's own variables do not leak in. `spawnedAt` is
 * performance.now() right before the spawn.
 */
export function spawnNodeServer({ port, env = {}, entry = serverEntry, cwd = projectRoot, nodeArgs = [] }) {
  const spawnedAt = performance.now()
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd,
    env: { PATH: process.env.PATH ?? '', TMPDIR: os.tmpdir(), HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  const output = []
  const stderr = []
  // Lines end at "\n" only: Node 24's readline also ends one at U+2028 and U+2029, which a JSON
  // log line holds unescaped inside its strings (a hostile URL logged), cutting it in two.
  const collect = (stream, alsoInto) =>
    new Promise((resolve) => {
      const take = (line) => {
        output.push(line)
        alsoInto?.push(line)
      }
      let rest = ''
      stream.setEncoding('utf8')
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n')
        rest = lines.pop()
        for (const line of lines) take(line.replace(/\r$/, ''))
      })
      stream.on('close', () => {
        if (rest) take(rest)
        resolve()
      })
    })
  const outputRead = Promise.all([collect(child.stdout), collect(child.stderr, stderr)])
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      children.delete(child)
      void outputRead.then(() => resolve({ code, signal }))
    })
  })
  let stopping
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output,
    stderr,
    exited,
    spawnedAt,
    stop({ signal = 'SIGTERM', killAfterMs = 20_000 } = {}) {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal)
        const kill = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
        try {
          return await exited
        } finally {
          clearTimeout(kill)
        }
      })()
      return stopping
    },
  }
}

/** One GET on a fresh connection; resolves to the status code (0 when nothing answered). */
function getStatus(url, timeoutMs) {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
      response.on('error', () => resolve(0))
    })
    request.on('timeout', () => request.destroy())
    request.on('error', () => resolve(0))
  })
}

/**
 * Polls GET /api/ready every `intervalMs` until it answers 200; resolves to the milliseconds since
 * the server was spawned. Throws, with the server's output, when it exits or times out first.
 */
export async function waitReady(server, { timeoutMs = 60_000, intervalMs = 100 } = {}) {
  let exit
  void server.exited.then((result) => (exit = result))
  const deadline = performance.now() + timeoutMs
  let lastStatus = 0
  while (performance.now() < deadline) {
    if (exit) {
      throw new Error(
        `The server exited (code ${exit.code}, signal ${exit.signal}) before it was ready. Its output:\n${server.output.join('\n')}`,
      )
    }
    lastStatus = await getStatus(`${server.url}/api/ready`, 3000)
    if (lastStatus === 200) return performance.now() - server.spawnedAt
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
  throw new Error(
    `The server was not ready within ${timeoutMs} ms (GET /api/ready: ${lastStatus || 'no answer'}). Its output:\n${server.output.join('\n')}`,
  )
}
