// HTTP throughput and latency with wrk (`-t2 -c64 -d10s --latency`) against a server this script
// starts on a fresh PGlite DATA_DIR, one endpoint after the other:
//   GET /api/health             (no database)
//   GET /                       (the app shell, index.html from memory)
//   GET /api/demo/server-time   (one `select now()` on the database)
// Each endpoint gets a short warm-up run first (not reported). Prints req/s and p50/p99 latency.
//
//   node bench/http.mjs [--duration=10s] [--connections=64] [--threads=2] [--warmup=2s|0] [--postgres]
//                      [--paths=/api/health,/,/api/demo/server-time]
//
// --postgres runs the server on a fresh database of TEST_DATABASE_URL (dropped afterwards) instead.
import {
  createPgDatabase,
  parseArgs,
  printEnvironment,
  printSummary,
  printWrkRuns,
  requireCommand,
  round,
  runWrk,
  withServer,
  wrkSettings,
} from './lib.mjs'

requireCommand('wrk', 'apt-get install wrk')

const args = parseArgs()
const { wrkOptions, warmup } = wrkSettings(args)
const adminUrl = process.env.TEST_DATABASE_URL || undefined
if (args.postgres && !adminUrl) {
  console.error('--postgres needs TEST_DATABASE_URL (a PostgreSQL admin URL).')
  process.exit(2)
}
const endpoints = (args.paths ? String(args.paths).split(',') : ['/api/health', '/', '/api/demo/server-time']).map(
  (path) => ({ path }),
)

printEnvironment({
  wrk: `-t${wrkOptions.threads} -c${wrkOptions.connections} -d${wrkOptions.duration} --latency`,
  warmup,
  database: args.postgres ? 'PostgreSQL (fresh database of TEST_DATABASE_URL)' : 'PGlite (fresh DATA_DIR)',
})

const database = args.postgres ? await createPgDatabase(adminUrl) : undefined
const results = await withServer({ databaseUrl: database?.url }, async (server) => {
  console.log(`server: ${server.url}\n`)
  const measured = []
  for (const endpoint of endpoints) {
    const url = server.url + endpoint.path
    const check = await fetch(url)
    const bytes = (await check.arrayBuffer()).byteLength
    if (check.status !== 200) throw new Error(`GET ${endpoint.path} answered ${check.status}, not 200`)
    if (warmup !== '0' && warmup !== '0s') await runWrk(url, { ...wrkOptions, duration: warmup })
    const result = await runWrk(url, wrkOptions)
    const errors = Object.values(result.socketErrors).reduce((a, b) => a + b, 0)
    measured.push({ ...endpoint, bytes, ...result, errors })
    console.log(
      `GET ${endpoint.path}: ${result.requestsPerSec.toFixed(0)} req/s, p50 ${result.percentiles.p50?.toFixed(2)} ms, p99 ${result.percentiles.p99?.toFixed(2)} ms`,
    )
  }
  return measured
}).finally(() => database?.drop())

console.log('')
printWrkRuns(
  results.map((r) => ({ ...r, name: `GET ${r.path}` })),
  ['body', 'rps', 'p50', 'p90', 'p99', 'max', 'requests', 'bad'],
  { body: { label: 'body B', value: (r) => r.bytes } },
)

printSummary('http', {
  wrk: wrkOptions,
  database: args.postgres ? 'postgres' : 'pglite',
  endpoints: Object.fromEntries(
    results.map((r) => [
      r.path,
      {
        requestsPerSec: round(r.requestsPerSec),
        p50Ms: round(r.percentiles.p50, 2),
        p90Ms: round(r.percentiles.p90, 2),
        p99Ms: round(r.percentiles.p99, 2),
        maxMs: round(r.latency.max, 2),
        requests: r.requests,
        non2xx3xx: r.non2xx3xx,
        socketErrors: r.errors,
      },
    ]),
  ),
})
