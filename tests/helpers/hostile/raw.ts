import type http from 'node:http'
import net from 'node:net'
import { type TestServer, jsonLogs, waitForLog } from '../server'
import { ANSWER_TIMEOUT_MS, type Answer, type RawFraming, nextClientAddress, traffic } from './shots'

// Requests written byte by byte on a socket of their own, for what node:http will not send.

/**
 * Writes the bytes on a new connection, then half-closes it (the client has nothing more to say),
 * and reads the first answer, if any, until the server closes. Undefined: no answer.
 */
export function fireRaw(server: TestServer, raw: RawFraming): Promise<Answer | undefined> {
  traffic.fired += 1
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: server.port, allowHalfOpen: true })
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`the connection was still open after ${ANSWER_TIMEOUT_MS} ms (a hang)`))
    }, ANSWER_TIMEOUT_MS)
    socket.on('connect', () => socket.end(raw.bytes))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    // A reset after the server refused is an answer too: whatever arrived before it counts.
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      try {
        resolve(parseAnswer(Buffer.concat(chunks)))
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    })
  })
}

/** The first HTTP/1.1 answer in the bytes a server sent (Content-Length or chunked body). */
function parseAnswer(bytes: Buffer): Answer | undefined {
  if (bytes.length === 0) return undefined
  // Interim answers (100 Continue) come first; the answer is the one after them.
  while (/^HTTP\/1\.[01] 1\d\d /.test(bytes.subarray(0, 13).toString('latin1'))) {
    const interimEnd = bytes.indexOf('\r\n\r\n')
    if (interimEnd < 0) break
    bytes = bytes.subarray(interimEnd + 4)
  }
  if (bytes.length === 0) return undefined
  const end = bytes.indexOf('\r\n\r\n')
  if (end < 0) throw new Error(`an answer cut in its headers: ${JSON.stringify(bytes.subarray(0, 300).toString('latin1'))}`)
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n')
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]
  if (!status) throw new Error(`not an HTTP answer: ${JSON.stringify(statusLine)}`)
  const headers: http.IncomingHttpHeaders = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  let rest = bytes.subarray(end + 4)
  let body: Buffer
  if (headers['transfer-encoding'] === 'chunked') {
    const pieces: Buffer[] = []
    for (;;) {
      const lineEnd = rest.indexOf('\r\n')
      const size = Number.parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16)
      if (lineEnd < 0 || !(size > 0)) break
      pieces.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size))
      rest = rest.subarray(lineEnd + 2 + size + 2)
    }
    body = Buffer.concat(pieces)
  } else {
    body = rest.subarray(0, Number(headers['content-length'] ?? rest.length))
  }
  return { status: Number(status), headers, body }
}

export interface Framing {
  why: string
  /** The request as bytes (latin1: one character per byte). */
  text: string
  expect: RawFraming['expect']
}

/**
 * Requests whose framing lies or breaks HTTP/1.1, to `path` with `body` (invalid for that
 * endpoint). `n` varies the sizes. Every one says `Connection: close`; the client half-closes
 * after writing, so a server waiting for more bytes sees the end.
 */
export function framingsOf(path: string, body: Buffer, n: number, host: string): Framing[] {
  const text = body.toString('latin1')
  const head = (extra: string, method = 'POST', target = path, version = 'HTTP/1.1') =>
    `${method} ${target} ${version}\r\nHost: ${host}\r\nConnection: close\r\nContent-Type: application/json\r\nX-Forwarded-For: ${nextClientAddress()}\r\n${extra}\r\n`
  const length = body.length
  const chunked = `${length.toString(16)}\r\n${text}\r\n0\r\n\r\n`
  return [
    { why: 'a body shorter than its Content-Length', text: head(`Content-Length: ${length + 1 + (n % 5000)}\r\n`) + text, expect: 'any' },
    {
      why: 'a body longer than its Content-Length (the rest is a garbled second request)',
      text: head(`Content-Length: ${1 + (n % (length - 1))}\r\n`) + text,
      expect: 'any',
    },
    { why: 'two different Content-Lengths', text: head(`Content-Length: ${length}\r\nContent-Length: ${length + 1}\r\n`) + text, expect: 'http' },
    { why: 'Content-Length and Transfer-Encoding (smuggling)', text: head(`Content-Length: ${length}\r\nTransfer-Encoding: chunked\r\n`) + chunked, expect: 'http' },
    { why: 'a Content-Length that is not a number', text: head(`Content-Length: ${['-1', '0x10', '1e3', '1.5', ' ', 'abc'][n % 6]}\r\n`) + text, expect: 'http' },
    { why: 'a chunk size that is not hexadecimal', text: head('Transfer-Encoding: chunked\r\n') + `zz\r\n${text}\r\n0\r\n\r\n`, expect: 'any' },
    { why: 'a chunked body that stops before its last chunk', text: head('Transfer-Encoding: chunked\r\n') + `${(length + 1 + (n % 100)).toString(16)}\r\n${text}`, expect: 'any' },
    { why: 'a chunk size of 2^72', text: head('Transfer-Encoding: chunked\r\n') + `ffffffffffffffffff\r\n${text}\r\n0\r\n\r\n`, expect: 'any' },
    { why: 'Transfer-Encoding other than chunked', text: head(`Transfer-Encoding: ${['gzip', 'identity', 'chunked, chunked', 'gzip, chunked', 'CHUNKED'][n % 5]}\r\n`) + chunked, expect: 'any' },
    { why: 'chunk extensions and trailers', text: head('Transfer-Encoding: chunked\r\n') + `${length.toString(16)};ext="${'x'.repeat(n % 50)}"\r\n${text}\r\n0\r\nX-Trailer: y\r\n\r\n`, expect: 'app' },
    // Node may reset the connection before its 431 is read.
    { why: 'headers over 16 KiB', text: head(`X-Padding: ${'a'.repeat(17_000 + (n % 4000))}\r\nContent-Length: ${length}\r\n`) + text, expect: 'any' },
    { why: 'a control character in a header', text: head(`X-Bad: a${String.fromCharCode(1 + (n % 8))}b\r\nContent-Length: ${length}\r\n`) + text, expect: 'http' },
    { why: 'an obsolete folded header', text: head(`X-Folded: a\r\n b\r\nContent-Length: ${length}\r\n`) + text, expect: 'http' },
    { why: 'a method Node does not know', text: head(`Content-Length: ${length}\r\n`, ['FOO', 'post', 'P0ST', 'GET\u0000'][n % 4]) + text, expect: 'http' },
    { why: 'a space or NUL in the target', text: head(`Content-Length: ${length}\r\n`, 'POST', `${path}${[' x', '\u0000', '\u00ff'][n % 3]}`) + text, expect: 'http' },
    { why: 'a backslash in the path', text: head(`Content-Length: ${length}\r\n`, 'POST', path.replace(/\/(?=[^/]*$)/, '\\')) + text, expect: 'http' },
    {
      why: 'a Host that is not a host name',
      text: head(`Content-Length: ${length}\r\n`).replace(`Host: ${host}`, `Host: ${['[::', 'a b', 'evil.example:99999', '', 'a/b', 'h\u00e9'][n % 6]}`) + text,
      expect: 'http',
    },
    {
      why: 'a Host the adapter lets through but no URL parser takes',
      text: head(`Content-Length: ${length}\r\n`).replace(`Host: ${host}`, `Host: ${['256.1.1.1', 'xn--a'][n % 2]}`) + text,
      expect: 'app',
    },
    { why: 'no Host', text: head(`Content-Length: ${length}\r\n`).replace(`Host: ${host}\r\n`, '') + text, expect: 'http' },
    { why: 'an absolute-form target naming another host', text: head(`Content-Length: ${length}\r\n`, 'POST', `http://evil.example${path}`) + text, expect: 'app' },
    { why: 'an Expect the server cannot meet', text: head(`Expect: ${['200-ok', '100-continue, x', 'x'][n % 3]}\r\nContent-Length: ${length}\r\n`) + text, expect: 'http' },
    { why: 'HTTP/1.0 without Content-Length', text: head('', 'POST', path, 'HTTP/1.0') + text, expect: 'any' },
    { why: 'an HTTP version that does not exist', text: head(`Content-Length: ${length}\r\n`, 'POST', path, ['HTTP/1.9', 'HTTP/2.0', 'HTTP/0.9', 'HTTX/1.1'][n % 4]) + text, expect: 'any' },
  ]
}

export const framingCount = framingsOf('/', Buffer.from('{}'), 0, 'localhost').length

/**
 * Sends a request to `path`, then stops: the body never reaches its announced length. Resolves to
 * the status the server logged for it and the errors it logged.
 */
export async function abandonBody(server: TestServer, path: string, requestId: string, framing: 'length' | 'chunked') {
  const body = '{"email":"a@example.com","password":'
  const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\nContent-Type: application/json\r\nX-Request-Id: ${requestId}\r\n`
  const text =
    framing === 'length'
      ? `${head}Content-Length: ${body.length + 100}\r\n\r\n${body}`
      : `${head}Transfer-Encoding: chunked\r\n\r\n${(body.length + 100).toString(16)}\r\n${body}`
  await fireRaw(server, { bytes: Buffer.from(text), expect: 'any' })
  const logged = await waitForLog(server, (entry) => entry.requestId === requestId && entry.msg === 'request')
  const errors = jsonLogs(server).filter((entry) => entry.requestId === requestId && Number(entry.level) >= 50)
  return { status: (logged.res as { status: number }).status, errors: errors.map((entry) => entry.msg) }
}
