// The app's API against a bare reference, on one fresh PostgreSQL database of TEST_DATABASE_URL
// (dropped afterwards), in one run:
//   - GET /api/language-levels on bench/api-baseline.mjs (node:http + pg, the same pool size, the
//     same two statements and JSON), and on the built app **without its cache**: every request asks
//     for a page nobody asked for lately (bench/lib/wrk-cache-miss.lua), so the app runs the same two
//     statements (the page, with its OFFSET, and the count) and answers an empty page: app ÷ baseline,
//     the framework's cost. The cached list is measured too, for information;
//   - GET /api/me/profile (the session from the 60 s cache cookie, then one query) on the app, as a
//     signed-in learner with a saved profile: authenticated ÷ public (uncached).
// wrk with the settings of bench/http.mjs (2 s warm-up, then -t2 -c64 -d10s --latency), one run at
// a time; the baseline and the uncached app take turns (--rounds=5 turns of 2 s each, combined: see
// measureInTurns), so that their ratio is of one machine. Prints req/s, p50/p99 and the ratios
// against the targets: uncached app ≥ 0.8 × baseline, p99 ≤ 20 ms, authenticated ≥ 0.7 × public.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/api.mjs
//                    [--duration=10s] [--rounds=5] [--connections=64] [--threads=2] [--warmup=2s|0]
//                    [--cpu-prof] [--log-requests]
//
// --cpu-prof runs the app under `node --cpu-prof`, measures the uncached list only, and prints where
// the app's CPU time went (self time by package or file, then by function). --log-requests runs the
// app with LOG_REQUESTS=true (a request line per answer, as every answer was logged before the request log became opt-in).
//
// PostgreSQL only: the baseline needs a database a second process can open (PGlite takes one).
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { printCpuProfile, readCpuProfile } from './lib/cpu-profile.mjs'
import {
  appRequest,
  combineWrkRuns,
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
/** Turns of the baseline and the uncached app (measureInTurns). */
const rounds = Number(args.rounds ?? 5)
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
  wrk: `-t${wrkOptions.threads} -c${wrkOptions.connections} -d${wrkOptions.duration} --latency (baseline and uncached app: ${rounds} turns each)`,
  warmup,
  database: 'PostgreSQL (fresh database of TEST_DATABASE_URL)',
})

const report = (name, result) => {
  const errors = Object.values(result.socketErrors).reduce((a, b) => a + b, 0)
  console.log(
    `${name}: ${result.requestsPerSec.toFixed(0)} req/s, p50 ${result.percentiles.p50?.toFixed(2)} ms, p99 ${result.percentiles.p99?.toFixed(2)} ms`,
  )
  return { name, ...result, errors }
}
const warm = async ({ url, headers = {}, script }) => {
  if (warmup !== '0' && warmup !== '0s') await runWrk(url, { ...wrkOptions, duration: warmup, headers, script })
}

async function measure(name, url, { headers = {}, script } = {}) {
  await warm({ url, headers, script })
  return report(name, await runWrk(url, { ...wrkOptions, headers, script }))
}

/**
 * The runs whose ratio is judged, taken in turns: `rounds` rounds of each in the same order, each
 * round a share of --duration, then each side's rounds combined (combineWrkRuns). On a machine
 * whose speed drifts from second to second, two runs one after the other would each see a
 * different machine; taken in turns, both see the same one.
 */
async function measureInTurns(sides) {
  for (const side of sides) await warm(side)
  const seconds = Math.max(1, Math.round(parseDuration(wrkOptions.duration) / 1000 / rounds))
  const runs = sides.map(() => [])
  for (let round = 0; round < rounds; round++) {
    for (const [index, { url, headers = {}, script }] of sides.entries()) {
      runs[index].push(await runWrk(url, { ...wrkOptions, duration: `${seconds}s`, headers, script }))
    }
  }
  return sides.map(({ name }, index) => report(name, combineWrkRuns(runs[index])))
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
  // Someone else: the first confirmed account would become the administrator, and a role change
  // makes every instance distrust the account's session cache cookies for a minute.
  ADMIN_EMAILS: 'admin@example.com',
  ...(args['log-requests'] ? { LOG_REQUESTS: 'true' } : {}),
}
const baselineEntry = path.join(import.meta.dirname, 'api-baseline.mjs')
const cacheMiss = path.join(import.meta.dirname, 'lib', 'wrk-cache-miss.lua')
const profileDir = args['cpu-prof'] ? await makeTempDir('lingua-bench-profile-') : undefined
const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []

const runs = await withServer({ dataDir, databaseUrl: database.url, env: appEnv, port, nodeArgs }, (app) =>
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

    // The pages the cache-miss run asks for are past the last level: empty, as the script expects.
    const miss = await getJson(app, `${listPath}?sort=position&page=2&pageSize=20`)
    if (miss.items.length !== 0) throw new Error('page 2 of 20 is not empty: the cache-miss run would not be like the baseline')
    const [baselineRun, appRun] = await measureInTurns([
      { name: `baseline GET ${listPath}`, url: baseline.url + listPath },
      { name: `app GET ${listPath}?page=<new> (no cache)`, url: app.url + listPath, script: cacheMiss },
    ])
    const measured = [
      { server: 'baseline', ...baselineRun },
      { server: 'app', ...appRun },
    ]
    // Profiled: the uncached list alone, so that the profile is its.
    if (profileDir) return measured
    measured.push({ server: 'app', ...(await measure(`app GET ${listPath} (cached)`, app.url + listPath)) })
    // A fresh cache cookie right before the run, so that it stays valid for the whole run.
    const withCache = { ...tokenOnly, [cacheCookie]: (await checkSession(app, tokenOnly, account.email, false))[cacheCookie] }
    const profile = await getJson(app, profilePath, withCache)
    if (profile.language !== 'fr') throw new Error(`${profilePath} did not answer the saved profile`)
    measured.push({
      server: 'app',
      ...(await measure(`app GET ${profilePath}`, app.url + profilePath, { headers: { Cookie: cookieString(withCache) } })),
    })
    // Still accepted after the run: every request had its session from the cache cookie.
    await checkSession(app, withCache, account.email, true)
    assertBuildUnchanged(app)
    return measured
  }),
).finally(() => Promise.all([database.drop(), removeDir(dataDir)]))

const [baselineList, appList, appCached, appProfile] = runs
console.log('')
printWrkRuns(runs, ['rps', 'p50', 'p90', 'p99', 'max', 'requests', 'bad'])

const appToBaseline = appList.requestsPerSec / baselineList.requestsPerSec
const authenticatedToPublic = appProfile ? appProfile.requestsPerSec / appList.requestsPerSec : NaN
const checks = [
  [`app (no cache) ÷ baseline, GET ${listPath}`, appToBaseline.toFixed(3), `≥ ${targets.appToBaseline}`, appToBaseline >= targets.appToBaseline],
  [`app p99, GET ${listPath} (no cache)`, `${appList.percentiles.p99?.toFixed(2)} ms`, `≤ ${targets.p99Ms} ms`, appList.percentiles.p99 <= targets.p99Ms],
  ...(appProfile
    ? [
        [`app p99, GET ${profilePath}`, `${appProfile.percentiles.p99?.toFixed(2)} ms`, `≤ ${targets.p99Ms} ms`, appProfile.percentiles.p99 <= targets.p99Ms],
        [`${profilePath} ÷ ${listPath}`, authenticatedToPublic.toFixed(3), `≥ ${targets.authenticatedToPublic}`, authenticatedToPublic >= targets.authenticatedToPublic],
      ]
    : []),
]
console.log('')
printTargets(checks)
let cpuProfile
if (profileDir) {
  cpuProfile = await readCpuProfile(profileDir)
  printCpuProfile(cpuProfile)
  await removeDir(profileDir)
}

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
  appCachedList: appCached && figures(appCached),
  appProfile: appProfile && figures(appProfile),
  logRequests: Boolean(args['log-requests']),
  cpuProfile: cpuProfile && { totalMs: round(cpuProfile.totalMs, 0), places: cpuProfile.places.slice(0, 10).map((p) => ({ ...p, ms: round(p.ms, 0), share: round(p.share, 3) })) },
  appToBaseline: round(appToBaseline, 3),
  authenticatedToPublic: round(authenticatedToPublic, 3),
  targets,
  pass: checks.every(([, , , ok]) => ok),
})
