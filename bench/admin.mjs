// The administrators' reads at a million accounts (the scale the admin area must hold), on PostgreSQL:
//   1. a fresh database of TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres),
//      migrated by the built server, which then runs on it (APP_URL its own address, ADMIN_EMAILS
//      the bench's administrator, who signs up and opens the emailed link);
//   2. --accounts (1,000,000) accounts with credentials, learner profiles and sessions, made by
//      PostgreSQL from generate_series (bench/admin-fill.sql, bench/lib/admin-fill.mjs), timed;
//   3. one uncached GET /api/admin/overview (the server keeps it 30 s), then wrk -t2 -c8 -d10s
//      (after a 2 s warm-up) on the overview and on the people table's reads: the first page, a
//      prefix search of emails, substring searches, one person by email, filters, the deepest
//      page, the other sorts; req/s, p50/p95/p99 (bench/lib/wrk-p95.lua adds the 95th), target
//      p95 ≤ 50 ms, judged only when the load average stays below the core count;
//   4. EXPLAIN (ANALYZE, BUFFERS) of each read's two statements (bench/lib/admin-plans.mjs, the
//      SQL of people.ts, checked to find the API's rows): the scans used, and the rows a sequential
//      scan of the user table read (under a LIMIT it stops early). Exits with 1 when a search's
//      plan reads the whole user table (a Seq Scan on "user" that read half of it or more).
//
//   npm run bench:admin [-- --accounts=1000000 --duration=10s --connections=8 --threads=2
//                          --warmup=2s --only=overview,first,prefix,… --plans=full|summary]
//   BENCH_KEEP=1                 keep the database afterwards (its URL is printed)
//   BENCH_DATABASE_URL=<url>     use that database (migrated and filled if it is not yet; never dropped)
import { spawn } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { countAccounts, fillAccounts } from './lib/admin-fill.mjs'
import { explain, overviewSql, pageIds, peopleSql } from './lib/admin-plans.mjs'
import {
  appRequest,
  assertBuildUnchanged,
  cacheCookie,
  checkSession,
  cookieString,
  createPgDatabase,
  freePort,
  makeTempDir,
  parseArgs,
  parseDuration,
  parseWrk,
  printBusyNote,
  printEnvironment,
  printSummary,
  printTable,
  registerAndVerify,
  removeDir,
  requireBuild,
  requireCommand,
  round,
  tokenCookie,
  track,
  verdict,
  withServer,
  wrkSettings,
} from './lib.mjs'

requireBuild()
requireCommand('wrk', 'apt-get install wrk')

const args = parseArgs()
const accounts = Number(args.accounts ?? 1_000_000)
const { wrkOptions, warmup } = wrkSettings({ connections: 8, ...args })
const keep = process.env.BENCH_KEEP === '1'
const givenDatabaseUrl = process.env.BENCH_DATABASE_URL || undefined
const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
const p95TargetMs = 50
const cores = os.cpus().length
const admin = { name: 'Bench Administrator', email: 'bench-admin@example.com', password: 'correct horse battery staple 42' }
// The session cache cookie lasts 60 s; a fresh one is taken right before each run.
if (!(parseDuration(warmup) + parseDuration(wrkOptions.duration) < 55_000)) {
  console.error('--warmup + --duration must stay under 55 s: the session cache cookie lasts 60 s.')
  process.exit(2)
}

/**
 * What is measured: `query` is GET /api/admin/users's query string (a search when it has `q`);
 * `email` is filled in with one person's address once the accounts are there.
 */
const allCases = [
  { key: 'overview', name: 'overview', path: '/api/admin/overview' },
  { key: 'first', name: 'first page', query: '' },
  { key: 'prefix', name: 'email/name prefix "an"', query: 'q=an' },
  { key: 'substring', name: 'name substring "mith"', query: 'q=mith' },
  { key: 'cyrillic', name: 'substring "иванов"', query: 'q=иванов' },
  { key: 'email', name: 'one person by email', query: 'q={email}' },
  { key: 'mfa', name: 'filter mfa=yes&confirmed=no', query: 'mfa=yes&confirmed=no' },
  { key: 'disabled', name: 'filter disabled=yes', query: 'disabled=yes' },
  { key: 'deep', name: 'deepest page (50 × 20)', query: 'page=50&pageSize=20' },
  { key: 'name', name: 'sort=name', query: 'sort=name' },
  { key: 'signin', name: 'sort=-lastSignInAt', query: 'sort=-lastSignInAt' },
  { key: 'search-deep', name: 'prefix "an", page 10', query: 'q=an&page=10&pageSize=20' },
]
const only = args.only ? String(args.only).split(',') : undefined
const cases = allCases.filter((c) => !only || only.includes(c.key))

const loadavg = () => os.loadavg()[0]
const encodeQuery = (query) =>
  query
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('=').map(encodeURIComponent).join('='))
    .join('&')
const pathOf = (c) => c.path ?? `/api/admin/users${c.query ? `?${encodeQuery(c.query)}` : ''}`

/** wrk with bench/lib/wrk-p95.lua (bench/lib/wrk.mjs's runWrk takes no script). */
function runWrkP95(url, { threads, connections, duration, headers = {} }) {
  const args = [`-t${threads}`, `-c${connections}`, `-d${duration}`, '--latency', '-s', path.join(import.meta.dirname, 'lib', 'wrk-p95.lua')]
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`)
  args.push(url)
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] })
    track(child)
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(parseWrk(output)) : reject(new Error(`wrk exited with ${code}:\n${output}`))))
  })
}

/** The administrator's session: signed up on a fresh database, signed in on a kept one. */
async function adminSession(app, client) {
  const { rows } = await client.query(`select 1 from "user" where email = $1`, [admin.email])
  if (rows.length === 0) return registerAndVerify(app, admin)
  const { setCookies } = await appRequest(app, 'POST', '/api/auth/sign-in/email', {
    body: { email: admin.email, password: admin.password },
  })
  return setCookies
}

async function timedGet(app, pathname, cookies) {
  const started = performance.now()
  const { json } = await appRequest(app, 'GET', pathname, { cookies })
  return { json, ms: performance.now() - started }
}

printEnvironment({
  accounts: accounts.toLocaleString('en'),
  wrk: `-t${wrkOptions.threads} -c${wrkOptions.connections} -d${wrkOptions.duration} --latency`,
  warmup,
  database: givenDatabaseUrl ? 'PostgreSQL (BENCH_DATABASE_URL)' : 'PostgreSQL (fresh database of TEST_DATABASE_URL)',
})
const loadBefore = loadavg()

const database = givenDatabaseUrl ? { url: givenDatabaseUrl, drop: async () => {} } : await createPgDatabase(adminUrl)
const dataDir = await makeTempDir('lingua-bench-data-')
const port = await freePort()
const env = { APP_URL: `http://127.0.0.1:${port}`, ADMIN_EMAILS: admin.email, AUTH_RATE_LIMIT_SCALE: '10000' }

const outcome = await withServer({ dataDir, databaseUrl: database.url, env, port }, async (app) => {
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  try {
    console.log(`server: ${app.url} (ready in ${Math.round(app.readyMs)} ms, migrations included)`)
    const session = await adminSession(app, client)
    const tokenOnly = { [tokenCookie]: session[tokenCookie] }

    let fill
    const present = await countAccounts(client)
    if (present >= accounts) {
      console.log(`\n${present.toLocaleString('en')} accounts already there: not filled again`)
    } else {
      console.log(`\nfilling ${accounts.toLocaleString('en')} accounts (bench/admin-fill.sql):`)
      const started = performance.now()
      fill = await fillAccounts(client, accounts)
      fill.totalMs = performance.now() - started
      console.log(`  total: ${(fill.totalMs / 1000).toFixed(1)} s; rows: ${JSON.stringify(fill.rows)}`)
    }
    const { rows: picked } = await client.query(`select email from "user" where id = md5('lingua-bench-user-' || $1)`, [
      Math.ceil(accounts / 2),
    ])
    for (const c of cases) c.query = c.query?.replace('{email}', picked[0]?.email ?? admin.email)

    // The first overview since the start: computed, not cached.
    const cold = await timedGet(app, '/api/admin/overview', tokenOnly)
    console.log(`\noverview, first request (computed): ${cold.ms.toFixed(0)} ms — ${cold.json.accounts.toLocaleString('en')} accounts`)

    // Each read once: the answer, and the hand-written SQL of bench/lib/admin-plans.mjs finds the same rows.
    for (const c of cases.filter((c) => c.query !== undefined)) {
      const { json } = await appRequest(app, 'GET', pathOf(c), { cookies: tokenOnly })
      c.matches = `${json.total.toLocaleString('en')}${json.totalCapped ? '+' : ''}`
      const ids = await pageIds(client, c.query)
      if (JSON.stringify(ids) !== JSON.stringify(json.items.map((item) => item.id))) {
        throw new Error(`${c.name}: the SQL of bench/lib/admin-plans.mjs finds other rows than the API; bring it in line with people.ts`)
      }
    }

    console.log('')
    const runs = []
    let overviewRunEnd = 0
    for (const c of cases) {
      const withCache = { ...tokenOnly, [cacheCookie]: (await checkSession(app, tokenOnly, admin.email, false))[cacheCookie] }
      const options = { ...wrkOptions, headers: { Cookie: cookieString(withCache) } }
      const url = app.url + pathOf(c)
      if (parseDuration(warmup) > 0) await runWrkP95(url, { ...options, duration: warmup })
      const result = await runWrkP95(url, options)
      if (c.key === 'overview') overviewRunEnd = performance.now()
      const run = { ...c, ...result, load: loadavg(), errors: Object.values(result.socketErrors).reduce((a, b) => a + b, 0) }
      runs.push(run)
      console.log(
        `${c.name}: ${result.requestsPerSec.toFixed(0)} req/s, p50 ${result.percentiles.p50?.toFixed(2)} ms, ` +
          `p95 ${result.percentiles.p95?.toFixed(2)} ms, p99 ${result.percentiles.p99?.toFixed(2)} ms (load ${run.load.toFixed(2)})`,
      )
    }
    assertBuildUnchanged(app)

    // The overview once more when its 30 s are over: computed again, now with the pages cached.
    let recomputed
    if (overviewRunEnd > 0) {
      const wait = overviewRunEnd + 31_000 - performance.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      recomputed = await timedGet(app, '/api/admin/overview', tokenOnly)
      console.log(`overview, computed again after its 30 s: ${recomputed.ms.toFixed(0)} ms`)
    }

    const plans = []
    for (const c of cases.filter((c) => c.query !== undefined)) {
      const sql = peopleSql(c.query)
      for (const statement of ['page', 'count']) plans.push({ name: c.name, statement, search: c.query.includes('q='), ...(await explain(client, sql[statement])) })
    }
    if (cases.some((c) => c.key === 'overview')) {
      for (const [statement, sql] of Object.entries(overviewSql)) plans.push({ name: 'overview', statement, search: false, ...(await explain(client, sql)) })
    }
    return { fill, cold, recomputed, runs, plans }
  } finally {
    await client.end()
  }
}).finally(async () => {
  await removeDir(dataDir)
  if (keep || givenDatabaseUrl) console.log(`\nkept the database: ${database.url}`)
  else await database.drop()
})

const { fill, cold, recomputed, runs, plans } = outcome
const loadAfter = loadavg()

if (args.plans !== 'summary') {
  console.log('\nEXPLAIN (ANALYZE, BUFFERS) of each read')
  for (const plan of plans) console.log(`\n— ${plan.name}, ${plan.statement}:\n${plan.lines.map((line) => `    ${line}`).join('\n')}`)
}

/**
 * A sequential scan reads the whole user table unless a LIMIT stopped it early (the capped count of
 * a broad search finds its 1,001 matches in the first few thousand rows): whole when it read at
 * least half of the accounts.
 */
const readsWholeTable = (p) => p.seqScanOfUser && p.seqRowsOfUser >= accounts / 2

console.log('\nplans')
printTable(
  plans.map((p) => ({
    read: p.name,
    statement: p.statement,
    ms: p.executionMs.toFixed(1),
    scans: p.scans.join(', '),
    seq: !p.seqScanOfUser
      ? ''
      : readsWholeTable(p)
        ? p.search ? 'WHOLE TABLE (search!)' : 'whole table'
        : `seq scan stopped after ${p.seqRowsOfUser.toLocaleString('en')} rows`,
  })),
  [
    { key: 'read', label: 'read', align: 'left' },
    { key: 'statement', label: 'statement', align: 'left' },
    { key: 'ms', label: 'exec ms', align: 'right' },
    { key: 'scans', label: 'scans', align: 'left' },
    { key: 'seq', label: 'user table', align: 'left' },
  ],
)

const verdictOf = (run) => verdict(run.percentiles.p95 <= p95TargetMs && run.non2xx3xx === 0 && run.errors === 0)
console.log(`\nfigures (wrk -t${wrkOptions.threads} -c${wrkOptions.connections} -d${wrkOptions.duration}; target p95 ≤ ${p95TargetMs} ms)`)
printTable(
  runs.map((r) => ({
    read: r.name,
    matches: r.matches ?? '',
    rps: r.requestsPerSec.toFixed(0),
    p50: r.percentiles.p50?.toFixed(2),
    p95: r.percentiles.p95?.toFixed(2),
    p99: r.percentiles.p99?.toFixed(2),
    max: r.latency.max.toFixed(2),
    bad: `${r.non2xx3xx}/${r.errors}`,
    load: r.load.toFixed(2),
    verdict: verdictOf(r),
  })),
  [
    { key: 'read', label: 'read', align: 'left' },
    { key: 'matches', label: 'matches', align: 'right' },
    { key: 'rps', label: 'req/s', align: 'right' },
    { key: 'p50', label: 'p50 ms', align: 'right' },
    { key: 'p95', label: 'p95 ms', align: 'right' },
    { key: 'p99', label: 'p99 ms', align: 'right' },
    { key: 'max', label: 'max ms', align: 'right' },
    { key: 'bad', label: 'non-2xx/sock err', align: 'right' },
    { key: 'load', label: 'load', align: 'right' },
    { key: 'verdict', label: `p95 ≤ ${p95TargetMs}`, align: 'left' },
  ],
)
console.log(
  `\noverview computed: ${cold.ms.toFixed(0)} ms on the first request` +
    (recomputed ? `, ${recomputed.ms.toFixed(0)} ms again after its 30 s` : ''),
)
if (fill) console.log(`fill: ${(fill.totalMs / 1000).toFixed(1)} s (${fill.steps.map((s) => `${s.name} ${(s.ms / 1000).toFixed(1)} s`).join(', ')})`)
console.log(`load average (1 min): ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, on ${cores} cores`)
printBusyNote()

const badSearches = plans.filter((p) => p.search && readsWholeTable(p))
if (badSearches.length > 0) {
  console.error(`\nA search reads the whole user table: ${badSearches.map((p) => `${p.name} (${p.statement})`).join(', ')}`)
  process.exitCode = 1
}

printSummary('admin', {
  accounts,
  wrk: wrkOptions,
  fillMs: fill ? round(fill.totalMs, 0) : null,
  fillSteps: fill ? Object.fromEntries(fill.steps.map((s) => [s.name, round(s.ms, 0)])) : null,
  overviewColdMs: round(cold.ms, 1),
  overviewRecomputedMs: recomputed ? round(recomputed.ms, 1) : null,
  reads: Object.fromEntries(
    runs.map((r) => [
      r.key,
      {
        requestsPerSec: round(r.requestsPerSec),
        p50Ms: round(r.percentiles.p50, 2),
        p95Ms: round(r.percentiles.p95, 2),
        p99Ms: round(r.percentiles.p99, 2),
        non2xx3xx: r.non2xx3xx,
        socketErrors: r.errors,
        load: round(r.load, 2),
        verdict: verdictOf(r),
      },
    ]),
  ),
  plans: plans.map((p) => ({ read: p.name, statement: p.statement, ms: round(p.executionMs, 1), scans: p.scans, seqScanOfUser: p.seqScanOfUser, seqRowsOfUser: p.seqRowsOfUser })),
  loadavg: { before: round(loadBefore, 2), after: round(loadAfter, 2), cores },
  seqScanOfUserInSearch: badSearches.length > 0,
})
