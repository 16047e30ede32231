import { setTimeout as sleep } from 'node:timers/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { startAppServer } from '../helpers/app-server'
import { databaseTargets } from '../helpers/database'
import { expectApiError, type ServerProcess, type TestServer, startServer } from '../helpers/server'

describe.each(databaseTargets())('health and readiness on %s', (target) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer({ database: target })
  })

  it('GET /api/health answers that the process is alive', async () => {
    const response = await fetch(`${server.url}/api/health`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toMatchObject({ status: 'ok' })
  })

  it('keeps an idle connection open longer than a load balancer does (65 s, not Node’s 5 s)', async () => {
    const response = await fetch(`${server.url}/api/health`)
    await response.body?.cancel()
    expect(response.headers.get('keep-alive')).toBe('timeout=65')
  })

  it('GET /api/ready answers that the database is reachable, and which one', async () => {
    const response = await fetch(`${server.url}/api/ready`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({ status: 'ready', database: target })
  })
})

describe.runIf(databaseTargets().includes('postgres'))(
  'readiness when PostgreSQL goes away',
  () => {
    /** Polls GET /api/ready until it answers `status`, for at most `withinMs`. */
    async function readyStatusBecomes(server: ServerProcess, status: number, withinMs: number) {
      const deadline = Date.now() + withinMs
      for (;;) {
        const response = await fetch(`${server.url}/api/ready`)
        if (response.status === status || Date.now() > deadline) return response
        await response.body?.cancel()
        await sleep(100)
      }
    }

    let server: ServerProcess
    beforeAll(async () => {
      server = await startServer({ database: 'postgres' })
    })

    it('answers 503 while the database refuses connections, and 200 again once it is back, without a restart', async () => {
      const database = server.database!

      await database.blockConnections()
      try {
        const unavailable = await readyStatusBecomes(server, 503, 5000)
        expect(unavailable.headers.get('retry-after')).toBe('5')
        await expectApiError(unavailable, 503, 'service_unavailable')
        // Health is about the process, not the database.
        expect((await fetch(`${server.url}/api/health`)).status).toBe(200)
      } finally {
        await database.allowConnections()
      }

      const back = await readyStatusBecomes(server, 200, 5000)
      expect(back.status).toBe(200)
      expect(await back.json()).toEqual({ status: 'ready', database: 'postgres' })
      expect(server.process.exitCode).toBeNull()
    })
  },
)
