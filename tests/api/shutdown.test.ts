import { beforeAll, describe, expect, it } from 'vitest'
import { databaseTargets } from '../helpers/database.js'
import { openUpload, type ServerProcess, startServer, waitForLog } from '../helpers/server.js'

const message = { name: ' Ada ', email: 'ADA@example.com', message: 'Sent across a shutdown.' }

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
    await new Promise((resolve) => setTimeout(resolve, 300))

    await expect(fetch(`${server.url}/api/health`)).rejects.toMatchObject({
      cause: { code: 'ECONNREFUSED' },
    })

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
})
