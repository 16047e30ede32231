import http from 'node:http'
import type { Client } from './auth-client'
import type { TestServer } from './server'

/** One event of a stream, as the client parsed it. */
export interface StreamEvent {
  /** The frame's own `id:` field; undefined when the frame had none (`reset`, `session-ended`). */
  id: number | undefined
  event: string
  data: unknown
}

export interface OpenStreamOptions {
  /** Sends the client's Origin and cookies: the stream is that session's. */
  client?: Client
  /** `Last-Event-ID`, as given: the tests send malformed ones too. */
  lastEventId?: string
  headers?: Record<string, string>
}

type Waiter = { settle: () => boolean }

/**
 * `GET /api/events` read with node:http, one connection of its own (no agent): `close()` ends
 * that socket at once, as a browser tab going away does. Not fetch: the tests' fetch
 * (tests/helpers/api-setup.ts) tees every answer into a clone it does not read for an event
 * stream, and cancelling the test's half of a tee neither ends the connection nor resolves.
 * Parses the frames as EventSource does (fields `id`, `event`, `data`; comments counted), keeps
 * every byte as received, and lets a test wait for an event.
 */
export class EventStream {
  readonly events: StreamEvent[] = []
  /** Every byte of the body, as text. */
  raw = ''
  /** Comment lines received (the heartbeats). */
  comments = 0
  /** True once the server ended the answer or the connection closed. */
  ended = false
  /** The server ended the answer itself (not `close()`, not an error). */
  endedByServer = false
  /** Resolves when the answer ends, whoever ended it. */
  readonly closed: Promise<void>

  readonly #request: http.ClientRequest
  readonly #response: http.IncomingMessage
  readonly #decoder = new TextDecoder()
  #pending = ''
  #frame: { id?: string; event?: string; data: string[] } = { data: [] }
  readonly #waiters = new Set<Waiter>()
  #closedByClient = false

  private constructor(request: http.ClientRequest, response: http.IncomingMessage) {
    this.#request = request
    this.#response = response
    this.closed = new Promise((resolve) => {
      const finish = (byServer: boolean) => {
        if (this.ended) return
        this.ended = true
        this.endedByServer = byServer && !this.#closedByClient
        this.#settleAll()
        resolve()
      }
      response.on('data', (chunk: Buffer) => this.#feed(this.#decoder.decode(chunk, { stream: true })))
      response.on('end', () => finish(true))
      response.on('error', () => finish(false))
      response.on('close', () => finish(false))
    })
  }

  /** Opens a stream; resolves once the answer's status and headers arrived. */
  static open(server: TestServer, options: OpenStreamOptions = {}): Promise<EventStream> {
    const { client, lastEventId, headers = {} } = options
    const request = http.request(`${server.url}/api/events`, {
      agent: false,
      headers: {
        Accept: 'text/event-stream',
        ...(client ? { Origin: client.origin, ...client.headers } : {}),
        ...(client && client.cookies.size > 0 ? { Cookie: client.cookieHeader() } : {}),
        ...(lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId }),
        ...headers,
      },
    })
    return new Promise((resolve, reject) => {
      request.on('error', reject)
      request.on('response', (response) => {
        const stream = new EventStream(request, response)
        // The session's cookies may be refreshed on the way, as for any request.
        if (client) {
          const answerHeaders = new Headers()
          for (const cookie of [response.headers['set-cookie'] ?? []].flat()) answerHeaders.append('Set-Cookie', cookie)
          client.keepCookies(new Response(null, { headers: answerHeaders }))
        }
        resolve(stream)
      })
      request.end()
    })
  }

  get status(): number {
    return this.#response.statusCode ?? 0
  }

  get headers(): http.IncomingHttpHeaders {
    return this.#response.headers
  }

  /** The events named `name`. */
  named(name: string): StreamEvent[] {
    return this.events.filter((event) => event.event === name)
  }

  /**
   * Resolves once `check` holds, looked at again as each chunk arrives; fails after `timeoutMs`, or
   * when the stream ends first, showing what the stream received.
   */
  waitUntil<T>(check: () => T | undefined, timeoutMs = 5000, what = 'the awaited event'): Promise<T> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        settle: () => {
          const found = check()
          if (found !== undefined) resolve(found)
          else if (this.ended) reject(new Error(`The stream ended before ${what}. ${this.#describe()}`))
          else return false
          clearTimeout(timer)
          this.#waiters.delete(waiter)
          return true
        },
      }
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter)
        reject(new Error(`No ${what} within ${timeoutMs} ms. ${this.#describe()}`))
      }, timeoutMs)
      if (!waiter.settle()) this.#waiters.add(waiter)
    })
  }

  /** The first event, received already or to come, that matches. */
  waitFor(matches: (event: StreamEvent) => boolean, timeoutMs = 5000, what = 'matching event'): Promise<StreamEvent> {
    return this.waitUntil(() => this.events.find(matches), timeoutMs, what)
  }

  /** The first `name` event, optionally one whose data matches. */
  waitForEvent(name: string, data: (data: Record<string, unknown>) => boolean = () => true, timeoutMs = 5000): Promise<StreamEvent> {
    return this.waitFor((event) => event.event === name && data(event.data as Record<string, unknown>), timeoutMs, `"${name}" event`)
  }

  /** Resolves when the answer ends; fails if it is still open after `timeoutMs`. */
  async waitForEnd(timeoutMs = 5000): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`The stream is still open after ${timeoutMs} ms. ${this.#describe()}`)), timeoutMs)
    })
    try {
      await Promise.race([this.closed, late])
    } finally {
      clearTimeout(timer)
    }
  }

  /** Ends the connection (the client goes away). */
  close(): void {
    if (!this.ended) this.#closedByClient = true
    this.#request.destroy()
  }

  #describe(): string {
    return `Status ${this.status}; received${this.raw.length > 4000 ? ' (the end)' : ''} ${JSON.stringify(this.raw.slice(-4000))}`
  }

  #feed(text: string): void {
    this.raw += text
    this.#pending += text
    // Lines end with CRLF, LF or CR; a CR at the very end may be the first half of a CRLF.
    const lines = this.#pending.split(/\r\n|\n|\r(?!$)/)
    this.#pending = lines.pop() ?? ''
    for (const line of lines) this.#line(line)
    this.#settleAll()
  }

  #line(line: string): void {
    if (line === '') {
      const { id, event, data } = this.#frame
      this.#frame = { data: [] }
      if (data.length === 0) return
      const text = data.join('\n')
      let parsed: unknown = text
      try {
        parsed = JSON.parse(text)
      } catch {
        // Kept as text: the test shows it.
      }
      this.events.push({ id: id === undefined ? undefined : Number(id), event: event ?? 'message', data: parsed })
      return
    }
    if (line.startsWith(':')) {
      this.comments++
      return
    }
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'id') this.#frame.id = value
    else if (field === 'event') this.#frame.event = value
    else if (field === 'data') this.#frame.data.push(value)
  }

  #settleAll(): void {
    for (const waiter of [...this.#waiters]) waiter.settle()
  }
}

/** Opens a stream and waits for its `ready` event; fails unless the answer is a 200 event stream. */
export async function openReadyStream(server: TestServer, options: OpenStreamOptions = {}): Promise<{ stream: EventStream; ready: number }> {
  const stream = await EventStream.open(server, options)
  if (stream.status !== 200 || !String(stream.headers['content-type']).startsWith('text/event-stream')) {
    await stream.waitForEnd().catch(() => undefined)
    stream.close()
    throw new Error(`GET /api/events answered ${stream.status} ${String(stream.headers['content-type'])}: ${stream.raw}`)
  }
  const ready = await stream.waitForEvent('ready')
  return { stream, ready: ready.id ?? Number.NaN }
}
