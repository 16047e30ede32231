// Authenticated traffic and password sign-in, on a server this script starts on a fresh PGlite
// DATA_DIR (or a fresh PostgreSQL database with --postgres). It registers an account, follows the
// verification link from the outbox (DATA_DIR/outbox) and keeps the session cookies, then:
//   - wrk (same settings as bench/http.mjs) against GET /api/health and GET /api/auth/get-session,
//     once with the 60 s cache cookie (lingua.session_data: no database) and once with only the
//     session token (a database lookup per request), and GET /api/me (the app's own route behind
//     requireUser) with the cache cookie; req/s, p99 and the ratio to /api/health;
//   - N sequential POST /api/auth/sign-in/email (scrypt on node:crypto): median and p95 latency.
//
//   node bench/auth.mjs [--duration=10s] [--connections=64] [--threads=2] [--warmup=2s|0]
//                       [--sign-ins=30] [--postgres]
//
// --postgres runs the server on a fresh database of TEST_DATABASE_URL (dropped afterwards) instead.
import {
  appRequest,
  assertBuildUnchanged,
  cacheCookie,
  checkSession as checkSessionOf,
  cookieString,
  createPgDatabase,
  freePort,
  makeTempDir,
  median,
  parseArgs,
  parseDuration,
  percentile,
  printEnvironment,
  printSummary,
  printWrkRuns,
  registerAndVerify as registerAndVerifyAccount,
  removeDir,
  requireBuild,
  requireCommand,
  round,
  runWrk,
  tokenCookie,
  withServer,
  wrkSettings,
} from './lib.mjs'

requireBuild()
requireCommand('wrk', 'apt-get install wrk')

const args = parseArgs()
const { wrkOptions, warmup } = wrkSettings(args)
const signIns = Math.max(1, Number(args['sign-ins'] ?? 30))
const adminUrl = process.env.TEST_DATABASE_URL || undefined
if (args.postgres && !adminUrl) {
  console.error('--postgres needs TEST_DATABASE_URL (a PostgreSQL admin URL).')
  process.exit(2)
}
// The cache cookie lives 60 s and is renewed right before its run: warm-up + run must fit in it.
if (!(parseDuration(warmup) + parseDuration(wrkOptions.duration) < 55_000)) {
  console.error('--warmup + --duration must stay under 55 s: the session cache cookie lasts 60 s.')
  process.exit(2)
}

const account = { name: 'Bench User', email: 'bench@example.com', password: 'correct horse battery staple 42' }
const credentials = { email: account.email, password: account.password }

printEnvironment({
  wrk: `-t${wrkOptions.threads} -c${wrkOptions.connections} -d${wrkOptions.duration} --latency`,
  warmup,
  database: args.postgres ? 'PostgreSQL (fresh database of TEST_DATABASE_URL)' : 'PGlite (fresh DATA_DIR)',
})

const request = appRequest

/** Sign-up, then the emailed link; the verification signs in. Returns the session cookies. */
const registerAndVerify = (server) => registerAndVerifyAccount(server, account)

/** Checks the cookies give the account's session; `cached`: answered from the cache cookie (no new one set). */
const checkSession = (server, cookies, cached) => checkSessionOf(server, cookies, account.email, cached)

async function measure(name, url, headers) {
  if (warmup !== '0' && warmup !== '0s') await runWrk(url, { ...wrkOptions, duration: warmup, headers })
  const result = await runWrk(url, { ...wrkOptions, headers })
  const errors = Object.values(result.socketErrors).reduce((a, b) => a + b, 0)
  console.log(`${name}: ${result.requestsPerSec.toFixed(0)} req/s, p99 ${result.percentiles.p99?.toFixed(2)} ms`)
  return { name, ...result, errors }
}

const database = args.postgres ? await createPgDatabase(adminUrl) : undefined
const dataDir = await makeTempDir('lingua-bench-data-')
const port = await freePort()
const env = {
  // In production better-auth refuses a POST whose Origin is not APP_URL's (localhost:PORT by default).
  APP_URL: `http://127.0.0.1:${port}`,
  // 100 × 10 000 /api/auth requests a minute per address: wrk stays far below.
  AUTH_RATE_LIMIT_SCALE: '10000',
  // Someone else: the first confirmed account would become the administrator, and a role change
  // makes every instance distrust the account's session cache cookies for a minute.
  ADMIN_EMAILS: 'admin@example.com',
}
const { runs, signInMs } = await withServer({ dataDir, databaseUrl: database?.url, env, port }, async (server) => {
  console.log(`server: ${server.url}\n`)
  const session = await registerAndVerify(server)
  const tokenOnly = { [tokenCookie]: session[tokenCookie] }

  const runs = [await measure('GET /api/health', `${server.url}/api/health`)]
  const sessionUrl = `${server.url}/api/auth/get-session`
  // A fresh cache cookie right before its run, so that it stays valid for the whole run.
  const fresh = await checkSession(server, tokenOnly, false)
  const withCache = { ...tokenOnly, [cacheCookie]: fresh[cacheCookie] }
  await checkSession(server, withCache, true)
  runs.push(await measure('get-session, cache cookie', sessionUrl, { Cookie: cookieString(withCache) }))
  await checkSession(server, withCache, true) // still valid after the run: every request was served from it
  // The app's own authenticated route (readSession → auth.api.getSession, no better-auth router).
  const freshForMe = { ...tokenOnly, [cacheCookie]: (await checkSession(server, tokenOnly, false))[cacheCookie] }
  runs.push(await measure('GET /api/me, cache cookie', `${server.url}/api/me`, { Cookie: cookieString(freshForMe) }))
  runs.push(await measure('get-session, database', sessionUrl, { Cookie: cookieString(tokenOnly) }))

  const signInMs = []
  for (let i = 0; i <= signIns; i++) {
    const started = performance.now()
    await request(server, 'POST', '/api/auth/sign-in/email', { body: credentials })
    if (i > 0) signInMs.push(performance.now() - started) // the first one warms up, not counted
  }
  assertBuildUnchanged(server)
  return { runs, signInMs }
}).finally(() => Promise.all([database?.drop(), removeDir(dataDir)]))

const health = runs[0].requestsPerSec
console.log('')
printWrkRuns(runs, ['rps', 'p50', 'p99', 'ratio', 'bad'], {
  ratio: { label: '÷ health', value: (r) => (r.requestsPerSec / health).toFixed(3) },
})

const signIn = { median: median(signInMs), p95: percentile(signInMs, 95), min: Math.min(...signInMs), max: Math.max(...signInMs) }
console.log(
  `\nPOST /api/auth/sign-in/email, ${signIns} sequential: median ${signIn.median.toFixed(1)} ms, ` +
    `p95 ${signIn.p95.toFixed(1)} ms (min ${signIn.min.toFixed(1)}, max ${signIn.max.toFixed(1)})`,
)

printSummary('auth', {
  wrk: wrkOptions,
  database: args.postgres ? 'postgres' : 'pglite',
  endpoints: Object.fromEntries(
    runs.map((r) => [
      r.name,
      {
        requestsPerSec: round(r.requestsPerSec),
        p99Ms: round(r.percentiles.p99, 2),
        ratioToHealth: round(r.requestsPerSec / health, 3),
        non2xx3xx: r.non2xx3xx,
        socketErrors: r.errors,
      },
    ]),
  ),
  signIn: { runs: signIns, medianMs: round(signIn.median), p95Ms: round(signIn.p95), minMs: round(signIn.min), maxMs: round(signIn.max) },
})
