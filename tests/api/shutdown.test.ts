import http from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { startAdminWorld } from '../helpers/accounts'
import { databaseTargets } from '../helpers/database'
import { expectApiError, openUpload, type ServerProcess, startServer, waitForLog } from '../helpers/server'

const message = { name: ' Ada ', email: 'ADA@example.com', message: 'Sent across a shutdown.' }

/** One request of the load: when its last byte was written, and how it ended. */
interface Sent {
  what: string
  sentAt: number
  outcome: Promise<Outcome>
}
/** How a request ended, and when (performance.now()). */
type Outcome = ({ status: number } | { error: string }) & { at: number }

describe.each(databaseTargets())('graceful shutdown on %s', (target) => {
  let server: ServerProcess
  beforeAll(async () => {
    // A long forced-close delay: only a clean drain can let the process exit within the test.
    server = await startServer({ database: target, env: { SHUTDOWN_TIMEOUT_MS: '600000' } })
  })

  it('finishes a request in flight on SIGTERM, refuses new connections, then exits with code 0', async () => {
    const upload = openUpload(server, {
      path: '/api/demo/messages',
      headers: { 'content-type': 'application/json' },
    })
    await upload.continued
    const body = JSON.stringify(message)
    upload.request.write(body.slice(0, body.length / 2))

    server.process.kill('SIGTERM')
    await waitForLog(server, (entry) => entry.signal === 'SIGTERM')
    await sleep(300)

    // A new connection (fetch could reuse an idle keep-alive one, which may still bring a
    // request for a moment after the signal).
    const connecting = new Promise((resolve, reject) =>
      http.get(`${server.url}/api/health`, { agent: false }, resolve).on('error', reject),
    )
    await expect(connecting).rejects.toMatchObject({ code: 'ECONNREFUSED' })

    upload.request.end(body.slice(body.length / 2))
    const response = await upload.response
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      received: { name: 'Ada', email: 'ada@example.com', message: 'Sent across a shutdown.' },
    })

    expect(await server.exited).toEqual({ code: 0, signal: null })
    const messages = server.logs.join('\n')
    expect(messages).toContain('"msg":"stopped"')
    expect(messages).not.toContain('shutdown timeout')
  })

  it('answers every request sent before SIGTERM under keep-alive load, reads and writes, then exits with code 0', async () => {
    const world = await startAdminWorld(target, `shutdown-load`, { SHUTDOWN_TIMEOUT_MS: '600000' }, startServer)
    try {
      const { server: loaded, learner } = world
      const cookie = learner.cookieHeader()
      // Few sockets, each reused for request after request, as a browser or a load balancer does.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 12 })
      const send = (what: string, method: string, path: string, body?: unknown): Sent => {
        const payload = body === undefined ? undefined : JSON.stringify(body)
        let sentAt = Number.POSITIVE_INFINITY
        const outcome = new Promise<Outcome>((resolve) => {
          const request = http.request(`${loaded.url}${path}`, {
            method,
            agent,
            headers: {
              origin: loaded.url,
              cookie,
              ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
            },
          })
          // Written to the socket: from here on the request is the server's to answer.
          request.on('finish', () => (sentAt = performance.now()))
          request.on('response', (response) => {
            response.resume()
            response.on('end', () => resolve({ status: response.statusCode ?? 0, at: performance.now() }))
            response.on('error', (error) => resolve({ error: String(error), at: performance.now() }))
          })
          request.on('error', (error) => resolve({ error: String(error), at: performance.now() }))
          request.end(payload)
        })
        return {
          what,
          get sentAt() {
            return sentAt
          },
          outcome,
        }
      }

      const sent: Sent[] = []
      let sending = true
      let writes = 0
      const worker = async (i: number) => {
        // Request after request on the agent's sockets, until told to stop.
        while (sending) {
          const request =
            i % 3 === 0
              ? send('profile write', 'PUT', '/api/me/profile', {
                  language: ++writes % 2 ? 'fr' : 'de',
                  currentLevelId: null,
                  targetLevelId: null,
                })
              : i % 3 === 1
                ? send('level list', 'GET', '/api/language-levels?pageSize=20')
                : send('profile read', 'GET', '/api/me/profile')
          sent.push(request)
          await request.outcome
        }
      }
      const workers = Array.from({ length: 24 }, (_, i) => worker(i))
      // Under way: every socket open and busy.
      while (sent.length < 200) await sleep(10)

      const signalAt = performance.now()
      loaded.process.kill('SIGTERM')
      // The load goes on after the signal (those requests may be refused), until the process exits
      // or gives up draining; the forced close is 10 minutes away.
      const exit = await Promise.race([
        loaded.exited,
        new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 8000)),
      ])
      sending = false
      await Promise.all(workers)
      agent.destroy()

      const before = sent.filter((request) => request.sentAt < signalAt)
      const outcomes = await Promise.all(
        before.map(async (request) => ({ what: request.what, ...(await request.outcome) })),
      )
      const failed = outcomes.filter((outcome) => !('status' in outcome) || outcome.status !== 200)
      // Those still unanswered when the signal came: what the drain is about.
      const inFlight = outcomes.filter((outcome) => outcome.at > signalAt)
      expect(exit, 'the process drained and exited within 8 s of SIGTERM').toEqual({ code: 0, signal: null })
      expect(failed, `${before.length} requests sent before the signal, ${inFlight.length} in flight`).toEqual([])
      expect(before.length).toBeGreaterThan(150)
      expect(inFlight.length).toBeGreaterThan(0)
      expect(loaded.logs.join('\n')).not.toContain('shutdown timeout')
    } finally {
      await world.stop()
    }
  })

  it('is not ready from SIGTERM on while it still serves for SHUTDOWN_DELAY_MS, alive until it exits', async () => {
    const delayMs = 2000
    const delayed = await startServer({
      database: target,
      env: { SHUTDOWN_DELAY_MS: String(delayMs), SHUTDOWN_TIMEOUT_MS: '600000' },
    })
    const upload = openUpload(delayed, {
      path: '/api/demo/messages',
      headers: { 'content-type': 'application/json' },
    })
    await upload.continued
    const body = JSON.stringify(message)
    upload.request.write(body.slice(0, 10))
    // A keep-alive connection opened before the signal, as a balancer keeps them.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const onKeptConnection = (path: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        http
          .get(`${delayed.url}${path}`, { agent }, (response) => {
            let text = ''
            response.on('data', (chunk: Buffer) => (text += chunk.toString()))
            response.on('end', () => resolve({ status: response.statusCode ?? 0, text }))
          })
          .on('error', reject)
      })
    expect((await onKeptConnection('/api/ready')).status).toBe(200)

    const killedAt = Date.now()
    delayed.process.kill('SIGTERM')
    const signalled = await waitForLog(delayed, (entry) => entry.signal === 'SIGTERM')
    expect(signalled).toMatchObject({ delayMs })

    // Readiness fails at once, on the kept connection and on new ones; liveness does not; the
    // app still answers (new connections are taken until the delay is over).
    const kept = await onKeptConnection('/api/ready')
    expect(kept.status).toBe(503)
    expect(JSON.parse(kept.text)).toMatchObject({ error: { code: 'service_unavailable' } })
    agent.destroy()
    await expectApiError(await fetch(`${delayed.url}/api/ready`), 503, 'service_unavailable')
    expect((await fetch(`${delayed.url}/api/health`)).status).toBe(200)
    expect((await fetch(`${delayed.url}/api/language-levels`)).status).toBe(200)

    // After the delay: no new connection; the request in flight still finishes.
    const refusedAt = Date.now() + 5000
    for (;;) {
      const outcome = await new Promise<string>((resolve) =>
        http
          .get(`${delayed.url}/api/health`, { agent: false }, (response) => {
            response.resume()
            resolve(String(response.statusCode))
          })
          .on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error')),
      )
      if (outcome === 'ECONNREFUSED') break
      // A connection the kernel took just before the server stopped listening is reset, not
      // refused: the same end, but only once the delay is over.
      if (outcome === 'ECONNRESET' && Date.now() - killedAt >= delayMs) break
      // Until then, alive.
      expect(outcome).toBe('200')
      expect(Date.now(), 'new connections refused after the delay').toBeLessThan(refusedAt)
      await sleep(100)
    }
    upload.request.end(body.slice(10))
    expect((await upload.response).status).toBe(200)
    expect(await delayed.exited).toEqual({ code: 0, signal: null })
  })
})
