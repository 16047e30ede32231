import http from 'node:http'
import type { Client } from '../auth-client'
import type { TestServer } from '../server'
import { fireRaw } from './raw'
import { ANSWER_TIMEOUT_MS, type Answer, type Shot, type Who, nextClientAddress, traffic } from './shots'

/** Requests in flight at once on one server. */
export const CONCURRENCY = 8

/** A server and the sessions its callers send. */
export interface Site {
  server: TestServer
  clients: Record<Who, Client | undefined>
}

const agents = new Map<string, http.Agent>()

function agentOf(server: TestServer) {
  let agent = agents.get(server.url)
  if (!agent) agents.set(server.url, (agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })))
  return agent
}

/** Closes the kept-alive connections of every server fired at. */
export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy()
  agents.clear()
}

export function cookieOf(client: Client | undefined): string {
  return client ? client.cookieHeader() : ''
}

/** The headers of a shot: a browser-like client's (Origin, its cookies, JSON), then its changes. */
function headersOf(where: Site, s: Shot): [string, string[]][] {
  const headers = new Map<string, [string, string[]]>()
  const set = (name: string, value: string) => headers.set(name.toLowerCase(), [name, [value]])
  set('Origin', where.server.url)
  const session = cookieOf(where.clients[s.who])
  if (session) set('Cookie', session)
  if (s.body !== undefined) set('Content-Type', 'application/json')
  const address = nextClientAddress()
  // Lets a log line be traced back to its request; a change may replace it with garbage.
  const requestId = `hostile-${traffic.requests}`
  set('X-Request-Id', requestId)
  traffic.sent.set(requestId, s)
  // The main server trusts it (TRUST_PROXY: the last entry, as a proxy appends it): each request
  // is a client of its own, under even the auth limits that AUTH_RATE_LIMIT_SCALE does not raise
  // (better-auth's own, 3 per 10 s on /sign-in/*…). The limited server ignores it.
  set('X-Forwarded-For', address)
  for (const change of s.headers) {
    const key = change.name.toLowerCase()
    const value = (change.value ?? '').replaceAll('{session}', session).replaceAll('{address}', address)
    if (change.action === 'remove') headers.delete(key)
    else if (change.action === 'set') set(change.name, value)
    else {
      const existing = headers.get(key)
      if (existing) existing[1].push(value)
      else set(change.name, value)
    }
  }
  return [...headers.values()]
}

/** Sends one shot with node:http (duplicated headers and all); rejects on a hang. */
export function fire(where: Site, s: Shot, retry = true): Promise<Answer | undefined> {
  if (s.raw) return fireRaw(where.server, s.raw)
  traffic.fired += retry ? 1 : 0
  return new Promise<Answer>((resolve, reject) => {
    const url = new URL(where.server.url)
    const request = http.request({
      host: url.hostname,
      port: url.port,
      method: s.method,
      path: s.target,
      agent: agentOf(where.server),
      // better-auth redirects a POST to its OAuth callback to a GET with the body in the query:
      // a Location as long as the body (encoded), more than Node's 16 KiB by default.
      maxHeaderSize: 1024 * 1024,
    })
    for (const [name, values] of headersOf(where, s)) request.setHeader(name, values.length === 1 ? (values[0] ?? '') : values)
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms (a hang)`)),
      ANSWER_TIMEOUT_MS,
    )
    request.on('response', (response) => {
      const chunks: Buffer[] = []
      const done = () => {
        clearTimeout(timer)
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) })
      }
      // An event stream never ends: its answer is what came up to the first `ready` event.
      const stream = String(response.headers['content-type']).startsWith('text/event-stream')
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk)
        if (stream && Buffer.concat(chunks).includes('event: ready\n')) {
          done()
          request.destroy()
        }
      })
      response.on('error', (error) => (stream ? undefined : reject(error)))
      response.on('end', done)
    })
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      // A kept-alive socket the server closed as this request left: the usual retry, once.
      if (retry && request.reusedSocket && (error.code === 'ECONNRESET' || error.message === 'socket hang up')) {
        fire(where, s, false).then((answer) => (answer ? resolve(answer) : reject(new Error('no answer'))), reject)
      } else {
        reject(new Error(`${error.message} (${error.code ?? 'no code'}${request.reusedSocket ? ', on a kept-alive connection' : ''})`))
      }
    })
    if (s.body === undefined) {
      request.end()
    } else if (s.chunked) {
      // Said outright: Node frames a GET or DELETE body as chunks only when told to.
      request.setHeader('Transfer-Encoding', 'chunked')
      const middle = Math.floor(s.body.length / 2)
      request.write(s.body.subarray(0, middle))
      request.end(s.body.subarray(middle))
    } else {
      request.setHeader('Content-Length', s.body.length)
      request.end(s.body)
    }
  })
}

export async function inPool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
