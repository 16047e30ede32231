import http from 'node:http'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { type GracefulShutdown, gracefulShutdown } from '@/server/http/shutdown'

/*
 * The graceful shutdown (src/server/http/shutdown.ts) on a real HTTP server in this process: no
 * spawned server, no signal sent. tests/api/shutdown.test.ts runs the built server under load.
 */

interface Harness {
  server: http.Server
  url: string
  lifecycle: GracefulShutdown
  /** Resolves with the exit code the shutdown ended with. */
  exited: Promise<number>
  events: string[]
}

const servers: http.Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections()
})

async function start(
  handler: http.RequestListener,
  options: { delayMs?: number; timeoutMs?: number } = {},
): Promise<Harness> {
  const server = http.createServer(handler)
  servers.push(server)
  const events: string[] = []
  let exit: (code: number) => void = () => {}
  const exited = new Promise<number>((resolve) => {
    exit = resolve
  })
  const lifecycle = gracefulShutdown(server, {
    logger: pino({ level: 'silent' }),
    delayMs: options.delayMs ?? 0,
    timeoutMs: options.timeoutMs ?? 10_000,
    idleGraceMs: 50,
    endStreams: () => events.push('streams ended'),
    release: () => {
      events.push('released')
      return Promise.resolve()
    },
    exit: (code) => {
      events.push(`exit ${code}`)
      exit(code)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { server, url: `http://127.0.0.1:${port}`, lifecycle, exited, events }
}

/** One request on a keep-alive connection of its own; its status, `Connection` header and body. */
function get(url: string): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const agent = new http.Agent({ keepAlive: true })
    http
      .get(url, { agent }, (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (body += chunk))
        response.on('end', () => {
          agent.destroy()
          resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body })
        })
      })
      .on('error', (error) => {
        agent.destroy()
        reject(error)
      })
  })
}

const refused = (url: string) => get(url).then(() => 'answered', (error: NodeJS.ErrnoException) => error.code)

describe('graceful shutdown', () => {
  it('lets an answer under way finish, closing its connection; then stops accepting, releases and exits 0', async () => {
    let arrived: () => void = () => {}
    const underWay = new Promise<void>((resolve) => {
      arrived = resolve
    })
    const harness = await start((_request, response) => {
      arrived()
      setTimeout(() => response.end('done'), 200)
    })
    const answer = get(harness.url)
    await underWay
    expect(harness.lifecycle.stopping).toBe(false)
    harness.lifecycle.shutdown('SIGINT')
    expect(harness.lifecycle.stopping).toBe(true)
    expect(await answer).toEqual({ status: 200, connection: 'close', body: 'done' })
    expect(await harness.exited).toBe(0)
    expect(harness.events).toEqual(['streams ended', 'streams ended', 'released', 'exit 0'])
    expect(await refused(harness.url)).toBe('ECONNREFUSED')
  })

  it('on SIGTERM still serves new connections for the delay, each closed after its answer', async () => {
    // Answered a moment later, as the app answers (an answer made at once is one sent again from
    // the cache, which is not under way).
    const harness = await start((_request, response) => setImmediate(() => response.end('ok')), { delayMs: 400 })
    harness.lifecycle.shutdown('SIGTERM')
    // A second signal changes nothing.
    harness.lifecycle.shutdown('SIGINT')
    expect(await get(harness.url)).toEqual({ status: 200, connection: 'close', body: 'ok' })
    expect(harness.events).toEqual(['streams ended'])
    expect(await harness.exited).toBe(0)
    expect(await refused(harness.url)).toBe('ECONNREFUSED')
  })

  it('closes the connections of requests still running after the timeout, then exits', async () => {
    // An answer that never ends (as a stream not told to end would be).
    const harness = await start(() => {}, { timeoutMs: 300 })
    const cut = refused(harness.url)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const started = Date.now()
    harness.lifecycle.shutdown('SIGINT')
    expect(await cut).toBe('ECONNRESET')
    expect(await harness.exited).toBe(0)
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
  })
})
