// The reference server of bench/api.mjs: the least code that answers `GET /api/language-levels` as
// the app does, so that the app's own cost (routing, middleware, validation, drizzle, headers) can
// be read as a ratio. node:http and a `pg` Pool of the app's size (`max: 10`, as in
// src/server/db/postgres.ts) on the same PostgreSQL database (DATABASE_URL); the same two statements
// the app's listLevels runs for the default query (page 1, 20 a page, by position), in parallel as
// it does; the same JSON (`{ items, total, page, pageSize }`, dates as ISO strings) with
// `Cache-Control: no-cache`. `GET /api/ready` answers 200 once the database does (for bench/lib.mjs).
//
//   DATABASE_URL=postgres://… PORT=3001 HOST=127.0.0.1 node bench/api-baseline.mjs
import http from 'node:http'
import pg from 'pg'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })

// What drizzle sends for the default list (checked with `.toSQL()`: no WHERE without a search, no
// OFFSET on page 1).
const listSql =
  'select "id", "code", "name", "description", "position", "version", "created_at", "updated_at", "created_by", "updated_by" ' +
  'from "language_level" order by "language_level"."position" asc, "language_level"."id" asc limit $1'
const countSql = 'select count(*) from "language_level"'
const pageSize = 20

async function listLevels() {
  const [rows, counted] = await Promise.all([pool.query(listSql, [pageSize]), pool.query(countSql)])
  return {
    items: rows.rows.map((row) => ({
      id: row.id,
      code: row.code,
      name: row.name,
      description: row.description,
      position: row.position,
      version: row.version,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      createdBy: row.created_by,
      updatedBy: row.updated_by,
    })),
    total: Number(counted.rows[0]?.count ?? 0),
    page: 1,
    pageSize,
  }
}

function send(response, status, body, headers = {}) {
  const text = JSON.stringify(body)
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  })
  response.end(text)
}

const server = http.createServer((request, response) => {
  const answer = async () => {
    if (request.method === 'GET' && request.url === '/api/language-levels') {
      send(response, 200, await listLevels(), { 'Cache-Control': 'no-cache' })
    } else if (request.method === 'GET' && request.url === '/api/ready') {
      await pool.query('select 1')
      send(response, 200, { status: 'ready' })
    } else {
      send(response, 404, { error: { code: 'not_found', message: 'Not found.' } })
    }
  }
  answer().catch((error) => {
    console.error(error)
    if (!response.headersSent) send(response, 503, { error: { code: 'unavailable', message: String(error) } })
  })
})

server.listen(Number(process.env.PORT ?? 3001), process.env.HOST ?? '127.0.0.1')

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close()
    server.closeAllConnections()
    void pool.end().finally(() => process.exit(0))
  })
}
