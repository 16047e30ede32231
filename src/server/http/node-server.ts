import { randomUUID } from 'node:crypto'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { getRequestListener, RequestError } from '@hono/node-server'
import type { Logger } from 'pino'
import { type ErrorCode, statusOfCode } from '@/shared/errors'
import { defaultMessages, errorBody } from './errors'
import { requestIdOf } from './request-id'
import { nonDocumentSecurityHeaders } from './security'

/** How long an idle keep-alive connection stays open (a load balancer's idle timeout is 60 s). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000

/**
 * The HTTP server of the app. Every answer is in the API's error shape with the security headers,
 * also those the app never sees: requests Node's parser refuses (malformed request line or
 * headers → 400, headers over 16 KiB → 431, too slow → 408), an HTTP/1.1 request without Host,
 * and a URL the adapter cannot build a Request from (`Host: a b`, a backslash in the path).
 */
export function createNodeServer(options: {
  fetch: (request: Request) => Response | Promise<Response>
  hostname: string
  https: boolean
  /** Believe X-Forwarded-Proto (TRUST_PROXY), as the app's security headers do. */
  trustProxy: boolean
  /**
   * A JSON answer the app sent for this very request (Host and target) and that still holds (the
   * public level reads, api/levels/cache.ts): sent again as the app sent it, without the app.
   */
  answerAgain?: (host: string | undefined, target: string) => { body: string; etag: string } | undefined
  logger: Logger
}): http.Server {
  const { logger, answerAgain } = options
  const securityHeaders = nonDocumentSecurityHeaders(options.https)
  const withHsts = nonDocumentSecurityHeaders(true)

  /** The refusal as bytes: status line, headers and the JSON body. */
  const refusal = (code: ErrorCode, message: string, requestId: string) => {
    const body = JSON.stringify(errorBody(code, message))
    const headers: Record<string, string> = {
      'Content-Type': 'application/json; charset=UTF-8',
      'Content-Length': String(Buffer.byteLength(body)),
      'Cache-Control': 'no-store',
      ...securityHeaders,
      'X-Request-Id': requestId,
      Connection: 'close',
    }
    return { status: statusOfCode[code], headers, body }
  }
  const logRefusal = (requestId: string, code: ErrorCode, reason: string) =>
    logger.info({ requestId, res: { status: statusOfCode[code] }, reason }, 'request refused before the app')

  const listener = getRequestListener(options.fetch, {
    hostname: options.hostname,
    errorHandler: (error) => {
      const requestId = randomUUID()
      if (error instanceof RequestError) {
        logRefusal(requestId, 'bad_request', error.message)
        const { status, headers, body } = refusal('bad_request', `${error.message}.`, requestId)
        return new Response(body, { status, headers })
      }
      logger.error({ requestId, err: error }, 'unhandled error outside the app')
      const { status, headers, body } = refusal('internal_error', defaultMessages.internal_error, requestId)
      return new Response(body, { status, headers })
    },
  })

  const answer = (response: ServerResponse, code: ErrorCode, message: string, reason: string) => {
    const requestId = randomUUID()
    logRefusal(requestId, code, reason)
    const { status, headers, body } = refusal(code, message, requestId)
    response.writeHead(status, headers).end(body)
  }

  // Node's own check answers a bare 400; this one answers in the shape.
  const server = http.createServer({ requireHostHeader: false }, (request, response) => {
    if (request.headers.host === undefined && request.httpVersion === '1.1') {
      answer(response, 'bad_request', 'The Host header is missing.', 'no Host header')
      return
    }
    if (answerAgain && answeredAgain(request, response)) return
    void listener(request, response)
  })

  /**
   * The same bytes and headers as the app's answer, at a fraction of its cost: only for a plain GET
   * (no body, no `If-None-Match`: the app answers those) whose answer the app gave before. Not in
   * the request log (LOG_LEVEL=debug lists them).
   */
  /** Each answer's bytes and head, made once (with and without HSTS): the hot path only sends. */
  const prepared = new WeakMap<object, { body: Buffer; head: string[]; headWithHsts: string[] }>()
  const prepare = (answer: { body: string; etag: string }) => {
    let ready = prepared.get(answer)
    if (!ready) {
      const body = Buffer.from(answer.body)
      const head = (security: Record<string, string>) => [
        ...['Cache-Control', 'no-cache', 'ETag', answer.etag, 'Content-Type', 'application/json'],
        ...['Content-Length', String(body.length)],
        ...Object.entries(security).flat(),
      ]
      ready = { body, head: head(securityHeaders), headWithHsts: head(withHsts) }
      prepared.set(answer, ready)
    }
    return ready
  }
  const answeredAgain = (request: IncomingMessage, response: ServerResponse): boolean => {
    const { headers } = request
    if (request.method !== 'GET' || request.url === undefined || headers['if-none-match'] !== undefined) return false
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false
    const answer = answerAgain?.(headers.host, request.url)
    if (!answer) return false
    const requestId = requestIdOf(headers['x-request-id'] as string | undefined)
    const forwardedHttps =
      options.trustProxy && String(headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim() === 'https'
    const { body, head, headWithHsts } = prepare(answer)
    response.writeHead(200, [...(forwardedHttps ? headWithHsts : head), 'X-Request-Id', requestId])
    response.end(body)
    if (logger.isLevelEnabled('debug')) logger.debug({ requestId, req: { method: 'GET', path: request.url } }, 'answered again')
    return true
  }
  // An Expect other than 100-continue: Node would answer a bare 417. The request is served as if
  // it had none (RFC 9110 lets a server ignore an expectation it does not meet).
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    server.emit('request', request, response)
  })
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node does: only on a connection that is still open and is not in the middle of an
    // answer (a malformed request pipelined behind one being answered ends the connection).
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy()
      return
    }
    const code: ErrorCode =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? 'headers_too_large'
        : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
          ? 'payload_too_large'
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? 'request_timeout'
            : 'bad_request'
    const message = code === 'bad_request' ? 'The request is not valid HTTP.' : defaultMessages[code]
    // Answered in full, then closed: nothing more is read from a connection out of step.
    const requestId = randomUUID()
    logRefusal(requestId, code, error.code ?? error.message)
    const { status, headers, body } = refusal(code, message, requestId)
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${head}\r\n${body}`)
  })

  // An idle keep-alive connection is kept longer than the clients in front keep theirs (a load
  // balancer's 60 s, a browser's): with Node's 5 s, a request sent on a connection just as the
  // server closes it is reset (a 502 behind a balancer, ECONNRESET for a script).
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000
  // A client that closes its side once its request is sent (a script, `curl` through some
  // proxies) is still answered: by default Node ends the connection on the client's FIN, and a
  // request still being handled — waiting on the database — never gets its answer.
  ;(server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true
  return server
}
