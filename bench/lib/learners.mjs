// Many signed-in learners at once (bench/assessment.mjs, bench/practice.mjs): their accounts and
// sessions are made by SQL (bench/learners-fill.sql), so nobody signs up or hashes a password. A
// learner's session cookie is the session's token signed with the server's auth secret (read from
// the database, where the server keeps it when AUTH_SECRET is not set) the way better-auth signs it
// (better-call's signCookieValue: `token.base64(HMAC-SHA256(secret, token))`, URI-encoded); one
// GET /api/auth/get-session with it then gives the signed cache cookie a browser holds, checked to
// be that learner's. wrk reads the learners from a file (bench/lib/wrk-learners.lua).
import { createHmac } from 'node:crypto'
import { copyFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { appRequest, cookieString, tokenCookie } from './accounts.mjs'
import { runFillScript } from './admin-fill.mjs'
import { printCpuProfile, readCpuProfile } from './cpu-profile.mjs'
import { createPgDatabase, freePort, makeTempDir, removeDir, withServer } from './server.mjs'
import { runWrk } from './wrk.mjs'

/**
 * The cookies of each learner in `userIds` (the token and the cache cookie), in the same order:
 * `concurrency` get-session requests at a time. Throws when one does not give its learner.
 */
export async function learnerCookies(app, client, userIds, { concurrency = 8 } = {}) {
  const [{ value: secret }] = (await client.query(`select value from server_secret where name = 'auth'`)).rows
  const { rows } = await client.query(
    `select distinct on (user_id) user_id, token from session where user_id = any($1) order by user_id, expires_at desc`,
    [userIds],
  )
  const tokens = new Map(rows.map((row) => [row.user_id, row.token]))
  const cookies = new Array(userIds.length)
  let next = 0
  const worker = async () => {
    while (next < userIds.length) {
      const index = next++
      const userId = userIds[index]
      const token = tokens.get(userId)
      if (!token) throw new Error(`no session for learner ${userId}`)
      const signature = createHmac('sha256', secret).update(token).digest('base64')
      const signed = { [tokenCookie]: encodeURIComponent(`${token}.${signature}`) }
      const { json, setCookies } = await appRequest(app, 'GET', '/api/auth/get-session', { cookies: signed })
      if (json?.user?.id !== userId) throw new Error(`get-session did not give learner ${userId}: is the cookie signed as better-auth signs it?`)
      cookies[index] = cookieString({ ...signed, ...setCookies })
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return cookies
}

/**
 * wrk with bench/lib/wrk-learners.lua: `mode` (`answers`, `grades` or `queue`), each line of
 * `lines` one learner (`cookie<TAB>item,item,…`). Resolves to wrk's figures plus `statuses` (the
 * answers by HTTP status) and `exhausted` (requests wrk had to make after every learner's items
 * were used up: a bench error).
 */
export async function runLearnersWrk(url, { mode, lines, dir, threads, connections, duration }) {
  const file = path.join(dir, `wrk-${mode}.txt`)
  await writeFile(file, `${lines.join('\n')}\n`)
  const nonce = Math.floor(Math.random() * 0xffffffff)
  const result = await runWrk(url, {
    threads,
    connections,
    duration,
    script: path.join(import.meta.dirname, 'wrk-learners.lua'),
    scriptArgs: [mode, file, String(nonce), String(threads)],
  })
  const statuses = {}
  let exhausted = 0
  for (const line of result.raw.split('\n')) {
    let m
    if ((m = /^STATUS (\d+) (\d+)$/.exec(line.trim()))) statuses[m[1]] = (statuses[m[1]] ?? 0) + Number(m[2])
    else if ((m = /^EXHAUSTED (\d+)$/.exec(line.trim()))) exhausted += Number(m[1])
  }
  const errors = Object.values(result.socketErrors).reduce((a, b) => a + b, 0)
  const non2xx = Object.entries(statuses)
    .filter(([status]) => !status.startsWith('2'))
    .reduce((total, [, n]) => total + n, 0)
  return { ...result, statuses, exhausted, errors, non2xx }
}

/**
 * A fresh database of TEST_DATABASE_URL (or BENCH_DATABASE_URL's, kept), migrated by the built
 * server, which then runs on it (APP_URL its own address; the per-address and per-account rate
 * limits scaled ×10,000: every request comes from 127.0.0.1 and a few thousand learners answer at
 * a rate no person does); filled by `fill` (runFillScript's options) unless `filled(client)` says
 * it is already; then `fn(app, client, { fill, database })`. The database is dropped afterwards
 * unless BENCH_KEEP=1 or it was given. `cpuProfile`: the server runs under `node --cpu-prof`, and
 * where its CPU time went is printed once it stopped (its whole life: mostly the runs), the profile
 * copied to BENCH_PROFILE_OUT when set.
 * `baseline`: bench/api-baseline.mjs runs beside the app on the same database (started once the app
 * has migrated), passed as `fn`'s `baseline` (see besideBaseline). `against`: a folder laid out as
 * dist/ (an earlier build), whose server runs beside the app on the same database, passed as `fn`'s
 * `against`: builds compared in turns, in one run.
 */
export async function withLearnersDatabase({ fill, filled, cpuProfile = false, baseline = false, against }, fn) {
  const keep = process.env.BENCH_KEEP === '1'
  const givenDatabaseUrl = process.env.BENCH_DATABASE_URL || undefined
  const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
  const database = givenDatabaseUrl ? { url: givenDatabaseUrl, drop: async () => {} } : await createPgDatabase(adminUrl)
  const dataDir = await makeTempDir('lingua-bench-data-')
  const port = await freePort()
  const env = { APP_URL: `http://127.0.0.1:${port}`, AUTH_RATE_LIMIT_SCALE: '10000', ACCOUNT_RATE_LIMIT_SCALE: '10000' }
  const profileDir = cpuProfile ? await makeTempDir('lingua-bench-profile-') : undefined
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
  const result = await withServer({ dataDir, databaseUrl: database.url, env, port, nodeArgs }, async (app) => {
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    try {
      console.log(`server: ${app.url} (ready in ${Math.round(app.readyMs)} ms, migrations included)`)
      let filling
      if (await filled(client)) console.log('\nthe database is filled already: not filled again')
      else {
        console.log(`\nfilling (${fill.files.map((file) => `bench/${file}`).join(', ')}):`)
        const started = performance.now()
        filling = await runFillScript(client, fill)
        filling.totalMs = performance.now() - started
        console.log(`  total: ${(filling.totalMs / 1000).toFixed(1)} s; rows: ${JSON.stringify(filling.rows)}`)
      }
      const { rows } = await client.query(`select pg_database_size(current_database())::bigint as bytes`)
      const bytes = Number(rows[0].bytes)
      console.log(`database size: ${(bytes / 1024 ** 3).toFixed(2)} GiB (pg_database_size)`)
      const context = { fill: filling, databaseBytes: bytes, dataDir, databaseUrl: database.url }
      const withBaseline = (more) =>
        baseline
          ? withServer({ databaseUrl: database.url, entry: baselineEntry }, (bare) => {
              console.log(`baseline: ${bare.url} (bench/api-baseline.mjs)`)
              return fn(app, client, { ...more, baseline: bare })
            })
          : fn(app, client, more)
      if (!against) return await withBaseline(context)
      const otherPort = await freePort()
      const otherDir = await makeTempDir('lingua-bench-data-')
      const otherEnv = { ...env, APP_URL: `http://127.0.0.1:${otherPort}` }
      return await withServer({ dataDir: otherDir, databaseUrl: database.url, env: otherEnv, port: otherPort, dist: against }, (other) => {
        console.log(`the other build: ${other.url} (${against})`)
        return withBaseline({ ...context, against: other })
      }).finally(() => removeDir(otherDir))
    } finally {
      await client.end()
    }
  }).finally(async () => {
    await removeDir(dataDir)
    if (keep || givenDatabaseUrl) console.log(`\nkept the database: ${database.url}`)
    else await database.drop()
  })
  if (profileDir) {
    const profile = await readCpuProfile(profileDir)
    printCpuProfile(profile, 25)
    // BENCH_PROFILE_OUT=<file>: the profile kept there (for Chrome's DevTools, or speedscope).
    if (process.env.BENCH_PROFILE_OUT) await copyFile(path.join(profileDir, profile.file), process.env.BENCH_PROFILE_OUT)
    await removeDir(profileDir)
  }
  return result
}

const baselineEntry = path.join(import.meta.dirname, '..', 'api-baseline.mjs')
const warmed = new WeakSet()

/**
 * A learner request's run between two runs of the bare baseline (bench/api-baseline.mjs: node:http
 * and `pg`, the default level list's two statements), turns B A B of the same wrk settings, so that
 * the ratio is of one machine even when its speed drifts: `measure()`'s result, plus `baseline`
 * (each turn's and their mean req/s) and `ratio` (the request's req/s ÷ that mean). Without a
 * baseline server, `measure()`'s result as it is.
 */
export async function besideBaseline(baseline, wrkOptions, measure) {
  if (!baseline) return measure()
  const url = `${baseline.url}/api/language-levels`
  // A fresh baseline server is warmed once (its JIT, its pool's connections).
  if (!warmed.has(baseline)) await runWrk(url, { ...wrkOptions, duration: '3s' })
  warmed.add(baseline)
  const turn = async () => (await runWrk(url, wrkOptions)).requestsPerSec
  const before = await turn()
  const result = await measure()
  const after = await turn()
  const mean = (before + after) / 2
  return { ...result, baseline: { turns: [before, after], requestsPerSec: mean }, ratio: result.requestsPerSec / mean }
}

/** "baseline 2,310 / 2,290 req/s: 0.121 of it" for a result of besideBaseline. */
export const baselineLine = (result) =>
  result.baseline
    ? `baseline ${result.baseline.turns.map((rps) => Math.round(rps).toLocaleString('en')).join(' / ')} req/s before / after: ` +
      `${result.ratio.toFixed(3)} of it`
    : ''

/**
 * Waits until no other connection to `client`'s database is running a statement or holding a
 * transaction open (30 s at most): wrk stops with requests in flight, which the server still
 * finishes. What the next run reads (the answers left, the cards due) must come after them, or it
 * would send answers and grades those requests already made (a 400 or 409 of the bench's doing).
 */
export async function settle(client) {
  const deadline = Date.now() + 30_000
  let quietSince
  while (Date.now() < deadline) {
    const { rows } = await client.query(
      `select count(*)::int as busy from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and state in ('active', 'idle in transaction')`,
    )
    if (rows[0].busy > 0) quietSince = undefined
    else if ((quietSince ??= Date.now()) <= Date.now() - 300) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * Samples, every 50 ms until `stop()`, what the other connections to `url`'s database are doing
 * (pg_stat_activity): running (`CPU`, no wait event), or waiting and on what (`Lock:advisory` is
 * the live events' lock every grade takes until it commits, `Lock:transactionid` a row another
 * transaction holds, `Client:ClientRead` a connection waiting for the server's next statement).
 * `stop()` resolves to each state's share of the samples of busy connections.
 */
export async function sampleWaits(url) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const counts = new Map()
  let samples = 0
  let running = true
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query(
        `select coalesce(wait_event_type || ':' || wait_event, 'CPU') as state, count(*)::int as n from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and state in ('active', 'idle in transaction')
         group by 1`,
      )
      samples += 1
      for (const row of rows) counts.set(row.state, (counts.get(row.state) ?? 0) + row.n)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      await client.end()
      const total = [...counts.values()].reduce((a, b) => a + b, 0)
      return {
        samples,
        busyPerSample: total / Math.max(samples, 1),
        shares: Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).map(([state, n]) => [state, n / total])),
      }
    },
  }
}

/** "Lock:advisory 62 %, CPU 20 %, …": the shares of sampleWaits. */
export const waitsLine = (waits) =>
  `${waits.busyPerSample.toFixed(1)} busy connections on average: ` +
  Object.entries(waits.shares)
    .map(([state, share]) => `${state} ${(share * 100).toFixed(0)} %`)
    .join(', ')
