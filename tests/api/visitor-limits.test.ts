import { beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_ERROR_LIMITS } from '@/server/api/client-errors'
import { SERVER_TIME_PER_MINUTE } from '@/server/api/demo'
import { startAppServer } from '../helpers/app-server'
import { expectApiError, jsonLogs, type TestServer } from '../helpers/server'

/** `POST /api/client-errors` is open to anyone: what a flood of reports can cost is bounded. */
describe('error reports from clients', () => {
  let server: TestServer
  beforeAll(async () => {
    // X-Forwarded-For gives each request the address the test chooses; the request log counts
    // the reports that arrived.
    server = await startAppServer({ env: { TRUST_PROXY: 'true', LOG_REQUESTS: 'true' } })
  })

  let addresses = 0
  const newAddress = () => `203.0.${(++addresses >> 8) & 255}.${addresses & 255}`
  const report = (body: unknown, address = newAddress()) =>
    fetch(`${server.url}/api/client-errors`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  const reportLines = () => jsonLogs(server).filter((entry) => String(entry.msg).startsWith('client error report'))
  const linesAbout = (message: string) =>
    reportLines().filter((entry) => (entry.clientError as { message?: string } | undefined)?.message === message)

  it('logs a report once, with what the client said', async () => {
    expect((await report({ status: 404, message: 'first report', path: '/nope', userAgent: 'Googlebot' })).status).toBe(204)
    await expect.poll(() => linesAbout('first report').length).toBe(1)
    expect(linesAbout('first report')[0]).toMatchObject({
      level: 40,
      clientError: { status: 404, message: 'first report', path: '/nope', userAgent: 'Googlebot' },
    })
  })

  it(`takes ${CLIENT_ERROR_LIMITS.maxBodyBytes / 1024} KiB at most (413), whatever the JSON says`, async () => {
    const longest = { status: 500, message: 'm'.repeat(2000), path: `/${'p'.repeat(1999)}`, userAgent: 'u'.repeat(1000) }
    expect((await report(longest)).status).toBe(204)
    // Within the schema's lengths, but escaped to 6 bytes a character.
    const escaped = `{"message":"${'\\u00e9'.repeat(2000)}","path":"/","userAgent":"x"}`
    await expectApiError(await report(escaped), 413, 'payload_too_large')
    await expectApiError(await report(`{"message":"x","path":"/","userAgent":"x","pad":"${' '.repeat(9000)}"}`), 413, 'payload_too_large')
  })

  it(`answers one address ${CLIENT_ERROR_LIMITS.perAddress} times a minute, then 429 with Retry-After`, async () => {
    const address = newAddress()
    const statuses: number[] = []
    for (let i = 0; i < CLIENT_ERROR_LIMITS.perAddress + 5; i++) {
      const response = await report({ message: `from one address ${i}`, path: '/', userAgent: 'x' }, address)
      statuses.push(response.status)
      if (response.status === 429) {
        await expectApiError(response, 429, 'rate_limited')
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
        expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(CLIENT_ERROR_LIMITS.windowSeconds)
      }
    }
    expect(statuses).toEqual([
      ...Array<number>(CLIENT_ERROR_LIMITS.perAddress).fill(204),
      ...Array<number>(5).fill(429),
    ])
    // Another address is not held back.
    expect((await report({ message: 'another address', path: '/', userAgent: 'x' })).status).toBe(204)
  })

  it('cannot grow the log beyond its budget: the same report is logged once, different ones up to the budget a window', async () => {
    const before = reportLines().length
    const logBytesBefore = server.logs.join('\n').length
    // The same report from 200 addresses (under each one's limit), then 300 different ones.
    const flood = [
      ...Array.from({ length: 200 }, () => ({ message: 'the same failure', path: '/dashboard', userAgent: 'x' })),
      ...Array.from({ length: 300 }, (_, i) => ({ message: `failure number ${i} ${'x'.repeat(1500)}`, path: '/', userAgent: 'x' })),
    ]
    for (let start = 0; start < flood.length; start += 25) {
      const answers = await Promise.all(flood.slice(start, start + 25).map((body) => report(body)))
      expect(answers.map((answer) => answer.status)).toEqual(Array<number>(answers.length).fill(204))
    }
    // Let the last lines arrive.
    await expect.poll(() => server.logs.filter((line) => line.includes('/api/client-errors')).length).toBeGreaterThanOrEqual(500)

    expect(linesAbout('the same failure').filter((entry) => entry.msg === 'client error reported')).toHaveLength(1)
    // The test may straddle the end of a window: two budgets at most, and their summaries.
    const added = reportLines().length - before
    expect(added).toBeLessThanOrEqual(2 * CLIENT_ERROR_LIMITS.loggedPerWindow + 4)
    // 500 requests of ~1.6 KB: the access lines (~250 bytes each) and the budget, not the bodies.
    const grown = server.logs.join('\n').length - logBytesBefore
    expect(grown).toBeLessThan(500 * 400 + 2 * CLIENT_ERROR_LIMITS.loggedPerWindow * 2000)
  })
})

/** The demo's clock is a database query anyone may ask for. */
describe("the demo's server time", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startAppServer({ env: { TRUST_PROXY: 'true' } })
  })
  const read = (address: string) =>
    fetch(`${server.url}/api/demo/server-time`, { headers: { 'X-Forwarded-For': address } })

  it('tells a visitor the time, not how long the server has run nor its version', async () => {
    const body = (await (await read('203.0.113.1')).json()) as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual(['databaseTime', 'requestId'])
  })

  it(`answers one address ${SERVER_TIME_PER_MINUTE} times a minute, then 429 with Retry-After`, async () => {
    const statuses = []
    for (let start = 0; start < SERVER_TIME_PER_MINUTE + 5; start += 25) {
      const batch = Math.min(25, SERVER_TIME_PER_MINUTE + 5 - start)
      statuses.push(...(await Promise.all(Array.from({ length: batch }, () => read('203.0.113.2')))).map((r) => r.status))
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(SERVER_TIME_PER_MINUTE)
    const refused = await read('203.0.113.2')
    await expectApiError(refused, 429, 'rate_limited')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await read('203.0.113.3')).status).toBe(200)
  })
})
