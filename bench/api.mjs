// The app's API against a bare reference, on one fresh PostgreSQL database of TEST_DATABASE_URL
// (dropped afterwards), in one run:
//   - GET /api/language-levels (public: two queries) on the built app, and on bench/api-baseline.mjs
//     (node:http + pg, the same pool size, the same SQL and JSON): app ÷ baseline;
//   - GET /api/me/profile (the session from the 60 s cache cookie, then one query) on the app, as a
//     signed-in learner with a saved profile: authenticated ÷ public.
// wrk with the settings of bench/http.mjs (2 s warm-up, then -t2 -c64 -d10s --latency), one run at
// a time: baseline list, app list, app profile. Prints req/s, p50/p99 and the ratios against the
// targets: app ≥ 0.8 × baseline, p99 ≤ 20 ms, authenticated ≥ 0.7 × public.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/api.mjs
//                    [--duration=10s] [--connections=64] [--threads=2] [--warmup=2s|0]
//
// PostgreSQL only: the baseline needs a database a second process can open (PGlite takes one).
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
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
  printEnvironment,
  printSummary,
  printTargets,
  printWrkRuns,
  registerAndVerify,
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
const adminUrl = process.env.TEST_DATABASE_URL || undefined
if (!adminUrl) {
  console.error(
    'bench/api.mjs needs TEST_DATABASE_URL (a PostgreSQL URL of a user allowed to create databases, ' +
      'e.g. postgres://postgres@127.0.0.1:5432/postgres): the baseline server shares the app\'s database.',
  )
  process.exit(2)
}
// The cache cookie lives 60 s and is renewed right before its run: warm-up + run must fit in it.
if (!(parseDuration(warmup) + parseDuration(wrkOptions.duration) < 55_000)) {
  console.error('--warmup + --duration must stay under 55 s: the session cache cookie lasts 60 s.')
  process.exit(2)
}

const targets = { appToBaseline: 0.8, p99Ms: 20, authenticatedToPublic: 0.7 }
const account = { name: 'Bench Learner', email: 'learner@example.com', password: 'correct horse battery staple 42' }
const listPath = '/api/language-levels'
const profilePath = '/api/me/profile'

printEnvironment({
  wrk: `-t${wrkOptions.threads} -c${wrkOptions.connections} -d${wrkOptions.duration} --latency`,
  warmup,
  database: 'PostgreSQL (fresh database of TEST_DATABASE_URL)',
})

async function measure(name, url, headers = {}) {
  if (warmup !== '0' && warmup !== '0s') await runWrk(url, { ...wrkOptions, duration: warmup, headers })
  const result = await runWrk(url, { ...wrkOptions, headers })
  const errors = Object.values(result.socketErrors).reduce((a, b) => a + b, 0)
  console.log(
    `${name}: ${result.requestsPerSec.toFixed(0)} req/s, p50 ${result.percentiles.p50?.toFixed(2)} ms, p99 ${result.percentiles.p99?.toFixed(2)} ms`,
  )
  return { name, ...result, errors }
}

/** GET `pathname` once; throws unless 200 with JSON. */
async function getJson(server, pathname, cookies) {
  return (await appRequest(server, 'GET', pathname, { cookies })).json
}

const database = await createPgDatabase(adminUrl)
const dataDir = await makeTempDir('lingua-bench-data-')
const port = await freePort()
const appEnv = {
  // In production better-auth refuses a POST whose Origin is not APP_URL's (localhost:PORT by default).
  APP_URL: `http://127.0.0.1:${port}`,
  AUTH_RATE_LIMIT_SCALE: '10000',
}
const baselineEntry = path.join(import.meta.dirname, 'api-baseline.mjs')

const runs = await withServer({ dataDir, databaseUrl: database.url, env: appEnv, port }, (app) =>
  // Started second: the app has migrated (and seeded the levels) by then.
  withServer({ databaseUrl: database.url, entry: baselineEntry }, async (baseline) => {
    console.log(`app: ${app.url}, baseline: ${baseline.url}\n`)
    const page = await getJson(app, listPath)
    if (!isDeepStrictEqual(page, await getJson(baseline, listPath))) {
      throw new Error(`the baseline's ${listPath} differs from the app's`)
    }
    if (page.items.length === 0) throw new Error('no language levels: the seed migration did not run')

    // A learner with a saved profile, so that the read finds a row.
    const session = await registerAndVerify(app, account)
    const tokenOnly = { [tokenCookie]: session[tokenCookie] }
    const [first, last] = [page.items[0], page.items.at(-1)]
    await appRequest(app, 'PUT', profilePath, {
      body: { language: 'fr', currentLevelId: first.id, targetLevelId: last.id },
      cookies: session,
    })

    const measured = [
      { server: 'baseline', ...(await measure(`baseline GET ${listPath}`, baseline.url + listPath)) },
      { server: 'app', ...(await measure(`app GET ${listPath}`, app.url + listPath)) },
    ]
    // A fresh cache cookie right before the run, so that it stays valid for the whole run.
    const withCache = { ...tokenOnly, [cacheCookie]: (await checkSession(app, tokenOnly, account.email, false))[cacheCookie] }
    const profile = await getJson(app, profilePath, withCache)
    if (profile.language !== 'fr') throw new Error(`${profilePath} did not answer the saved profile`)
    measured.push({
      server: 'app',
      ...(await measure(`app GET ${profilePath}`, app.url + profilePath, { Cookie: cookieString(withCache) })),
    })
    // Still accepted after the run: every request had its session from the cache cookie.
    await checkSession(app, withCache, account.email, true)
    assertBuildUnchanged(app)
    return measured
  }),
).finally(() => Promise.all([database.drop(), removeDir(dataDir)]))

const [baselineList, appList, appProfile] = runs
console.log('')
printWrkRuns(runs, ['rps', 'p50', 'p90', 'p99', 'max', 'requests', 'bad'])

const appToBaseline = appList.requestsPerSec / baselineList.requestsPerSec
const authenticatedToPublic = appProfile.requestsPerSec / appList.requestsPerSec
const checks = [
  [`app ÷ baseline, GET ${listPath}`, appToBaseline.toFixed(3), `≥ ${targets.appToBaseline}`, appToBaseline >= targets.appToBaseline],
  [`app p99, GET ${listPath}`, `${appList.percentiles.p99?.toFixed(2)} ms`, `≤ ${targets.p99Ms} ms`, appList.percentiles.p99 <= targets.p99Ms],
  [`app p99, GET ${profilePath}`, `${appProfile.percentiles.p99?.toFixed(2)} ms`, `≤ ${targets.p99Ms} ms`, appProfile.percentiles.p99 <= targets.p99Ms],
  [`${profilePath} ÷ ${listPath}`, authenticatedToPublic.toFixed(3), `≥ ${targets.authenticatedToPublic}`, authenticatedToPublic >= targets.authenticatedToPublic],
]
console.log('')
printTargets(checks)

const figures = (r) => ({
  requestsPerSec: round(r.requestsPerSec),
  p50Ms: round(r.percentiles.p50, 2),
  p90Ms: round(r.percentiles.p90, 2),
  p99Ms: round(r.percentiles.p99, 2),
  maxMs: round(r.latency.max, 2),
  requests: r.requests,
  non2xx3xx: r.non2xx3xx,
  socketErrors: r.errors,
})
printSummary('api', {
  wrk: wrkOptions,
  database: 'postgres',
  baselineList: figures(baselineList),
  appList: figures(appList),
  appProfile: figures(appProfile),
  appToBaseline: round(appToBaseline, 3),
  authenticatedToPublic: round(authenticatedToPublic, 3),
  targets,
  pass: checks.every(([, , , ok]) => ok),
})
