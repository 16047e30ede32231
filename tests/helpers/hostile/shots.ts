import type http from 'node:http'
import fc from 'fast-check'

/** An answer slower than this is a hang (the slowest honest one takes a second on a busy machine). */
export const ANSWER_TIMEOUT_MS = 15_000

export type Who = 'visitor' | 'learner' | 'admin'

/** A change to the headers a browser-like client would send (Origin, Cookie, Content-Type…). */
export interface HeaderChange {
  name: string
  /** `remove` drops the header; `set` replaces it; `add` sends one more line of it. */
  action: 'remove' | 'set' | 'add'
  /**
   * `{session}` is replaced, when sent, with the caller's own session cookies; `{address}` with
   * the client address its trusted proxy would add.
   */
  value?: string
}

export interface Shot {
  who: Who
  method: string
  /** The request target exactly as sent: path and query, already encoded (or not). */
  target: string
  body?: Buffer
  /** Sent with Transfer-Encoding: chunked instead of Content-Length. */
  chunked?: boolean
  headers: HeaderChange[]
  /** What is hostile about it, for the failure report. */
  why: string
  /**
   * Whether it is certain to be refused (or, for GET/HEAD, to be only a read): what the
   * "refused and wrote nothing" properties rely on.
   */
  refused: boolean
  /** Bytes written as they are on a socket of their own, for what node:http will not send. */
  raw?: RawFraming
}

export interface RawFraming {
  bytes: Buffer
  /**
   * Who answers, always in the error shape with the security headers: `app` the app; `http`
   * the HTTP server before the app (Node's parser refusing it, the Host check, the adapter), or
   * the app; `any` either, or no answer at all (the server drops a connection whose body never
   * completes, or resets one still sending over 16 KiB of headers).
   */
  expect: 'app' | 'http' | 'any'
}

export const safeMethods = new Set(['GET', 'HEAD'])
export const methodsWithBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** A shot as fast-check prints a counterexample: short, with the body cut. */
export function describeShot(shot: Shot): string {
  const body =
    shot.body === undefined
      ? ''
      : ` body(${shot.body.length} B${shot.chunked ? ', chunked' : ''})=${JSON.stringify(shot.body.subarray(0, 160).toString('latin1'))}`
  const headers = shot.headers.map((h) => `${h.action} ${h.name}${h.value === undefined ? '' : `=${JSON.stringify(h.value.slice(0, 80))}`}`)
  return `[${shot.who}] ${shot.method} ${shot.target.slice(0, 300)}${body}${headers.length ? ` headers: ${headers.join(', ')}` : ''} (${shot.why})`
}

export function shot(fields: Shot): Shot {
  if (fields.raw) {
    const { raw } = fields
    const text = raw.bytes.subarray(0, 400).toString('latin1')
    return Object.assign(fields, { [fc.toStringMethod]: () => `[raw, expect ${raw.expect}] ${JSON.stringify(text)} (${fields.why})` })
  }
  return Object.assign(fields, { [fc.toStringMethod]: () => describeShot(fields) })
}

export interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

/** What was fired: the count at the end, and the shot behind a request id of the server's log. */
export const traffic = { fired: 0, requests: 0, sent: new Map<string, Shot>() }

/**
 * The client address of the next request, as its trusted proxy would add it: each request is a
 * client of its own (see headersOf in ./fire).
 */
export function nextClientAddress(): string {
  const n = (traffic.requests += 1)
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
}
