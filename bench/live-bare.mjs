// The reference of bench/live.mjs for the cached list: the least code that answers one URL with
// bytes held in memory, as the app answers a read from its cache. node:http, no framework: it
// answers GET `BODY_URL` (path and query, as sent) with the bytes of the file `BODY_FILE` (read once
// at start: the app's own answer to that URL) and the app's `Content-Type`, `Cache-Control` and
// `ETag` (`BODY_HEADERS`, JSON), 304 when `If-None-Match` matches as the app does; `GET /api/ready`
// answers 200 (for bench/lib/server.mjs); anything else 404.
//
//   BODY_FILE=… BODY_URL='/api/language-levels?…' BODY_HEADERS='{…}' PORT=3001 node bench/live-bare.mjs
import { readFileSync } from 'node:fs'
import http from 'node:http'

const body = readFileSync(process.env.BODY_FILE)
const bodyUrl = process.env.BODY_URL
const headers = { ...JSON.parse(process.env.BODY_HEADERS ?? '{}'), 'Content-Length': body.length }

const server = http.createServer((request, response) => {
  if (request.method === 'GET' && request.url === bodyUrl) {
    if (headers.ETag && request.headers['if-none-match'] === headers.ETag) {
      response.writeHead(304, { ETag: headers.ETag, 'Cache-Control': headers['Cache-Control'] ?? 'no-cache' }).end()
    } else {
      response.writeHead(200, headers).end(body)
    }
  } else if (request.method === 'GET' && request.url === '/api/ready') {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ready"}')
  } else {
    response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":{"code":"not_found","message":"Not found."}}')
  }
})

server.listen(Number(process.env.PORT ?? 3001), process.env.HOST ?? '127.0.0.1')

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close()
    server.closeAllConnections()
    process.exit(0)
  })
}
