// Soak: a steady open-loop rate of mixed traffic, for minutes, on two instances of the built app
// sharing one fresh PostgreSQL database (of TEST_DATABASE_URL, dropped afterwards) and Redis (of
// TEST_REDIS_URL, under a REDIS_KEY_PREFIX of its own, deleted afterwards):
//   - password sign-ins (each followed by the sign-out of the session it replaces), session reads
//     (GET /api/me, GET /api/auth/get-session), public list and level reads, profile saves, and
//     administrator edits of levels with the version read, some deliberately with a stale one (409);
//   - each instance sampled every --sample seconds, at the end of the warm-up ("start"), half-way
//     through the rest ("middle") and at the end: RSS, heap after a full collection, active
//     handles, open file descriptors and event-loop delay, from bench/soak-probe.mjs loaded into
//     the server with --import (no metrics endpoint); PostgreSQL connections of the database;
//   - per kind: requests, statuses, failures (network error, timeout, 5xx, a wrong success), p50
//     and p99; a trend verdict (middle against end) and the targets: no failure, no growth.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test TEST_REDIS_URL=redis://127.0.0.1:6379 \
//     node bench/soak.mjs [--rate=50] [--duration=600] [--warmup=60] [--sample=30] [--learners=20]
//                         [--timeout=10] [--seed=1]
import { readFile, readdir, readlink } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  assertBuildUnchanged,
  cookieString,
  createPgDatabase,
  createRedisNamespace,
  freePort,
  makeTempDir,
  median,
  parseArgs,
  parseDuration,
  percentile,
  printEnvironment,
  printSummary,
  printTable,
  registerAndVerify,
  removeDir,
  requireBuild,
  responseCookies,
  round,
  verdict,
  withServer,
} from './lib.mjs'

requireBuild()

const args = parseArgs()
const seconds = (value, fallback) => parseDuration(String(value ?? fallback)) / 1000
const rate = Number(args.rate ?? 50)
const durationS = seconds(args.duration, 600)
const warmupS = seconds(args.warmup, Math.min(60, Math.round(durationS / 5)))
const sampleS = seconds(args.sample, 30)
const learnerCount = Math.max(2, Number(args.learners ?? 20))
const timeoutMs = seconds(args.timeout, 10) * 1000
const seed = Number(args.seed ?? 1)
if (![rate, durationS, warmupS, sampleS, timeoutMs].every((v) => Number.isFinite(v) && v >= 0) || rate <= 0 || warmupS >= durationS || sampleS < 1) {
  console.error('--rate must be > 0, --duration longer than --warmup, --sample ≥ 1 s (durations in seconds or 10s/2m).')
  process.exit(2)
}
const adminUrl = process.env.TEST_DATABASE_URL || undefined
const redisUrl = process.env.TEST_REDIS_URL || undefined
if (!adminUrl || !redisUrl) {
  console.error(
    'bench/soak.mjs needs TEST_DATABASE_URL (a PostgreSQL URL of a user allowed to create databases, e.g. ' +
      'postgres://postgres@127.0.0.1:5432/test) and TEST_REDIS_URL (e.g. redis://127.0.0.1:6379): the two ' +
      'instances share them.',
  )
  process.exit(2)
}

/** What a trend from the middle to the end must exceed, both ways, to count as growth. */
const growth = { ratio: 1.1, rssBytes: 10 * 1024 ** 2, handles: 10, fds: 10, heapBytes: 5 * 1024 ** 2 }
const password = 'correct horse battery staple 42'
const adminEmail = 'soak-admin@example.com'
const probeFile = path.join(import.meta.dirname, 'soak-probe.mjs')

// --- Randomness: seeded, so that a run's mix can be replayed (--seed) ---------------------------

function mulberry32(state) {
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const random = mulberry32(seed)
const pick = (items) => items[Math.floor(random() * items.length)]

// --- Figures --------------------------------------------------------------------------------------

/**
 * The kinds of request, with their share of the scheduled rate and the statuses that are right.
 * A sign-out is not scheduled: it follows each sign-in (the session it replaces), as a browser's
 * user signs out before signing in again, so that sessions do not pile up on a few accounts.
 */
const kinds = {
  signIn: { label: 'POST /api/auth/sign-in/email', weight: 4, expect: [200] },
  signOut: { label: 'POST /api/auth/sign-out (after sign-in)', weight: 0, expect: [200] },
  me: { label: 'GET /api/me', weight: 22, expect: [200] },
  getSession: { label: 'GET /api/auth/get-session', weight: 22, expect: [200] },
  list: { label: 'GET /api/language-levels', weight: 20, expect: [200] },
  level: { label: 'GET /api/language-levels/:id', weight: 12, expect: [200] },
  profile: { label: 'PUT /api/me/profile', weight: 12, expect: [200] },
  edit: { label: 'PATCH /api/language-levels/:id', weight: 6, expect: [200] },
  staleEdit: { label: 'PATCH …/:id, stale version (409)', weight: 2, expect: [409] },
}
for (const kind of Object.values(kinds)) {
  Object.assign(kind, {
    requests: 0,
    expected: 0,
    otherClientErrors: new Map(), // status → count
    failures: new Map(), // reason → count
    warmupFailures: 0,
    latencies: [], // ms, after the warm-up
  })
}
const scheduled = Object.entries(kinds).filter(([, kind]) => kind.weight > 0)
const totalWeight = scheduled.reduce((sum, [, kind]) => sum + kind.weight, 0)
function pickKind() {
  let r = random() * totalWeight
  for (const [name, kind] of scheduled) if ((r -= kind.weight) < 0) return name
  return scheduled[0][0]
}
const increment = (map, key) => map.set(key, (map.get(key) ?? 0) + 1)

// --- One request ---------------------------------------------------------------------------------

/** Updates a cookie jar (Map name → value) from the cookies a response sets or deletes. */
function keepCookies(jar, response) {
  for (const [name, value] of Object.entries(responseCookies(response))) {
    if (value) jar.set(name, value)
    else jar.delete(name)
  }
}

let appUrl
let warmupEndsAt = Number.POSITIVE_INFINITY
const instances = []

/**
 * Sends one request of `kindName` to `instance` as the app's page would (Origin APP_URL on writes,
 * the jar's cookies), with a timeout, and records its outcome. `check(json)` says whether an
 * expected 2xx carries the right answer. Resolves to { status, json } (status 0 on failure).
 */
async function send(kindName, instance, method, pathname, { jar, body, check } = {}) {
  const kind = kinds[kindName]
  const inWarmup = performance.now() < warmupEndsAt
  const started = performance.now()
  let status = 0
  let json
  let failure
  try {
    const cookie = jar && jar.size > 0 ? cookieString(Object.fromEntries(jar)) : undefined
    const response = await fetch(instance.url + pathname, {
      method,
      headers: {
        Accept: 'application/json',
        ...(method === 'GET' ? {} : { Origin: appUrl }),
        ...(body ? { 'Content-Type': 'application/json' } : {}),
        ...(cookie ? { Cookie: cookie } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await response.text()
    status = response.status
    if (jar) keepCookies(jar, response)
    if (response.headers.get('content-type')?.includes('json') && text) {
      try {
        json = JSON.parse(text)
      } catch {
        failure = `${status}, unreadable JSON`
      }
    }
    if (status >= 500) failure = `${status} ${json?.error?.code ?? ''}`.trim()
    else if (kind.expect.includes(status) && status < 300 && check && !check(json)) failure ??= `${status}, wrong answer: ${summarize(json)}`
    else if (status < 400 && !kind.expect.includes(status)) failure = `${status} instead of ${kind.expect.join('/')}`
  } catch (error) {
    failure = error?.name === 'TimeoutError' ? `timeout (${timeoutMs / 1000} s)` : `network: ${error?.cause?.code ?? error?.message}`
  }
  const ms = performance.now() - started
  kind.requests++
  instance.requests++
  if (failure) {
    increment(kind.failures, failure)
    instance.failures++
    if (inWarmup) kind.warmupFailures++
  } else if (kind.expect.includes(status)) kind.expected++
  else increment(kind.otherClientErrors, status)
  if (!inWarmup) {
    kind.latencies.push(ms)
    instance.latencies.push(ms)
  }
  return { status: failure ? 0 : status, json }
}

// --- The traffic ---------------------------------------------------------------------------------

let learners = []
let admin
let levels = []

/** What a wrong answer was, short enough for the failure's reason (whose session, or the JSON). */
function summarize(json) {
  if (typeof json?.user?.email === 'string') return `the session of ${json.user.email}`
  const text = JSON.stringify(json) ?? 'no body'
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

/**
 * The learner's own session; or none (`null`) when the cookies sent were those of a session the
 * learner has signed out meanwhile (a sign-in replaced them while the request was under way).
 */
const ownSession = (learner) => {
  const sent = learner.jar
  return (json) => json?.user?.email === learner.email || (json === null && learner.jar !== sent)
}

const actions = {
  async signIn(instance) {
    // A learner not signing in already: two sign-ins at once would both sign out the same session.
    const learner = pick(learners.filter((l) => !l.signingIn)) ?? pick(learners)
    learner.signingIn = true
    try {
      const fresh = new Map()
      const { status } = await send('signIn', instance, 'POST', '/api/auth/sign-in/email', {
        jar: fresh,
        body: { email: learner.email, password },
        check: (json) => json?.user?.email === learner.email,
      })
      if (status !== 200) return
      const replaced = learner.jar
      learner.jar = fresh
      await send('signOut', pick(instances), 'POST', '/api/auth/sign-out', { jar: replaced, body: {}, check: (json) => json?.success === true })
    } finally {
      learner.signingIn = false
    }
  },
  me(instance) {
    const learner = pick(learners)
    return send('me', instance, 'GET', '/api/me', { jar: learner.jar, check: ownSession(learner) })
  },
  getSession(instance) {
    const learner = pick(learners)
    return send('getSession', instance, 'GET', '/api/auth/get-session', { jar: learner.jar, check: ownSession(learner) })
  },
  list(instance) {
    const query = pick(['', '', '', '?sort=-code', '?sort=name&q=b', '?page=1&pageSize=3', '?q=intermediate'])
    return send('list', instance, 'GET', `/api/language-levels${query}`, { check: (json) => Array.isArray(json?.items) })
  },
  level(instance) {
    const { id } = pick(levels)
    return send('level', instance, 'GET', `/api/language-levels/${id}`, { check: (json) => json?.id === id })
  },
  profile(instance) {
    const learner = pick(learners)
    // Positions never change here (no reorder): the target at or above the current level.
    const [current, target] = [pick(levels), pick(levels)].sort((a, b) => a.position - b.position)
    const body = { language: pick(['fr', 'de', 'es', 'ja', null]), currentLevelId: current.id, targetLevelId: target.id }
    return send('profile', instance, 'PUT', '/api/me/profile', { jar: learner.jar, body, check: (json) => json?.targetLevelId === target.id })
  },
  async edit(instance) {
    // A level no other edit of this run has in flight, with the version its last edit answered: a
    // 409 here is not a race of the script's own. After an edit without an answer (timeout, 5xx),
    // which may have been applied, the level is read again first, as the admin page would. When
    // every level has an edit in flight (a slow server), a stale edit goes instead.
    const level = pick(levels.filter((l) => !l.editing))
    if (!level) return actions.staleEdit(instance)
    level.editing = true
    try {
      if (level.versionUnknown) {
        const { status, json } = await send('level', instance, 'GET', `/api/language-levels/${level.id}`, {
          check: (answer) => answer?.id === level.id,
        })
        if (status !== 200) return
        level.version = json.version
        level.versionUnknown = false
      }
      const body = { version: level.version, description: `Soak edit ${Date.now()} on ${instance.name}` }
      const { status, json } = await send('edit', instance, 'PATCH', `/api/language-levels/${level.id}`, {
        jar: admin.jar,
        body,
        check: (answer) => answer?.version === body.version + 1,
      })
      if (status === 200) level.version = json.version
      else level.versionUnknown = true
    } finally {
      level.editing = false
    }
  },
  async staleEdit(instance) {
    // One version behind what the last edit answered (versions only go up, so stale even when the
    // level's version is unknown after a failed edit): another administrator's old form.
    const level = pick(levels.filter((l) => l.version > 1))
    if (!level) return levels.some((l) => !l.editing) ? actions.edit(instance) : undefined // nothing stale yet
    const body = { version: level.version - 1, name: level.name }
    return send('staleEdit', instance, 'PATCH', `/api/language-levels/${level.id}`, { jar: admin.jar, body })
  },
}

// --- Samples -------------------------------------------------------------------------------------

let pgClient
let database
let redis
const pgPeak = { connections: 0 }

async function pgConnections() {
  const { rows } = await pgClient.query(
    'select coalesce(state, \'?\') as state, count(*)::int as n from pg_stat_activity where datname = $1 group by 1',
    [database.name],
  )
  const byState = Object.fromEntries(rows.map((r) => [r.state, r.n]))
  const total = rows.reduce((sum, r) => sum + r.n, 0)
  pgPeak.connections = Math.max(pgPeak.connections, total)
  return { total, active: byState.active ?? 0, idle: (byState.idle ?? 0) + (byState['idle in transaction'] ?? 0) }
}

const portHex = (port) => `:${Number(port).toString(16).toUpperCase().padStart(4, '0')}`

/**
 * The process's open descriptors, and of its TCP sockets (its `socket:[inode]` descriptors found in
 * /proc/net/tcp) those accepted on its own port (client connections: the script's keep-alive
 * connections, as many as it needed at once in the last minute, since undici keeps an idle one as
 * long as the server's `Keep-Alive: timeout=65` allows) and those to PostgreSQL and to Redis.
 * Client connections follow the load, not the server's state: the trend is judged without them.
 */
async function descriptors(pid, { port, pgPort, redisPort }) {
  const dir = `/proc/${pid}/fd`
  const names = await readdir(dir).catch(() => [])
  const links = await Promise.all(names.map((name) => readlink(path.join(dir, name)).catch(() => '')))
  const inodes = new Set(links.map((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1]).filter(Boolean))
  const counts = { fds: names.length, clients: 0, pg: 0, redis: 0 }
  const table = await readFile('/proc/net/tcp', 'utf8').catch(() => '')
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/)
    if (!inodes.has(fields[9])) continue
    if (fields[1]?.endsWith(portHex(port))) counts.clients++
    else if (fields[2]?.endsWith(portHex(pgPort))) counts.pg++
    else if (fields[2]?.endsWith(portHex(redisPort))) counts.redis++
  }
  return counts
}

/**
 * The lowest resident set size of `pid` over a second (10 reads of VmRSS): a password hash holds a
 * 32 MiB scrypt buffer (128 × N × r) for the tens of milliseconds it runs, so a single read moves
 * by 32 MiB for each sign-in under way; the floor is what stays.
 */
async function rssFloor(pid) {
  let lowest = Number.POSITIVE_INFINITY
  for (let read = 0; read < 10; read++) {
    if (read > 0) await new Promise((resolve) => setTimeout(resolve, 100))
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
    const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1])
    if (Number.isFinite(kb)) lowest = Math.min(lowest, kb * 1024)
  }
  return lowest
}

/** Asks the instance's probe for a line (SIGUSR2) and waits for it; adds its descriptors and RSS floor. */
async function probe(instance) {
  const before = instance.probeLines
  instance.server.child.kill('SIGUSR2')
  for (let waited = 0; waited < 10_000; waited += 20) {
    const lines = (await readFile(instance.probeFile, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean)
    if (lines.length > before) {
      instance.probeLines = lines.length
      const ports = { port: instance.server.port, pgPort: new URL(database.url).port || 5432, redisPort: new URL(redis.url).port || 6379 }
      const [counts, floor] = await Promise.all([descriptors(instance.server.child.pid, ports), rssFloor(instance.server.child.pid)])
      return { ...JSON.parse(lines.at(-1)), ...counts, rssFloor: floor }
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`${instance.name}: the probe wrote nothing within 10 s (is bench/soak-probe.mjs loaded?)`)
}

const samples = []
const mb = (bytes) => round(bytes / 1024 ** 2, 1)

async function takeSample(label, t) {
  const [a, b, pg, redisKeys] = await Promise.all([probe(instances[0]), probe(instances[1]), pgConnections(), redis.countKeys()])
  // CPU time used since the previous sample, in % of one core (all threads of the process).
  const previous = samples.at(-1)
  for (const [i, m] of [a, b].entries()) {
    const before = previous?.instances[i]
    m.cpuPercent = before ? ((m.cpu.user + m.cpu.system - before.cpu.user - before.cpu.system) / ((m.at - before.at) * 1000)) * 100 : Number.NaN
  }
  const sample = {
    label,
    t: Math.round(t),
    load: os.loadavg()[0],
    pg,
    redisKeys,
    instances: [a, b],
    requests: totalRequests(),
    failures: totalFailures(),
  }
  samples.push(sample)
  const describe = (name, s) =>
    `${name} rss ${mb(s.memory.rss)} MB (floor ${mb(s.rssFloor)}) heap ${mb(s.memory.heapUsed)} MB handles ${s.handles} (${s.clients} client conns) ` +
    `fds ${s.fds} pg ${s.pg} loop p99 ${s.loop.p99} ms cpu ${Math.round(s.cpuPercent)} %`
  console.log(
    `t=${String(sample.t).padStart(4)} s ${label.padEnd(6)} requests ${String(sample.requests).padStart(6)}, failures ${totalFailures()}, ` +
      `in flight ${inFlight.size} | ${describe('A', a)} | ${describe('B', b)} | pg ${pg.total} | redis keys ${redisKeys} | load ${sample.load.toFixed(2)}`,
  )
  return sample
}

const totalRequests = () => Object.values(kinds).reduce((sum, k) => sum + k.requests, 0)
const sumMap = (map) => [...map.values()].reduce((a, b) => a + b, 0)
const totalFailures = () => Object.values(kinds).reduce((sum, k) => sum + sumMap(k.failures), 0)

// --- The run -------------------------------------------------------------------------------------

const inFlight = new Set()
const dispatchLag = []
let peakInFlight = 0

let trafficS = Number.NaN

/**
 * Sends `rate` requests a second, whatever the answers (open loop), for the duration and until the
 * end sample is taken (so that it sees the servers under the same traffic as the others).
 */
async function drive() {
  const startedAt = performance.now()
  warmupEndsAt = startedAt + warmupS * 1000

  // Sample times: every --sample seconds, and the labelled start (end of warm-up), middle and end.
  const labelled = [
    [warmupS, 'start'],
    [warmupS + (durationS - warmupS) / 2, 'middle'],
    [durationS, 'end'],
  ]
  const times = [...labelled]
  for (let t = sampleS; t < durationS; t += sampleS) {
    if (labelled.every(([at]) => Math.abs(at - t) >= Math.min(5, sampleS / 2))) times.push([t, 'trend'])
  }
  times.sort((x, y) => x[0] - y[0])
  let sampled = false
  const sampling = (async () => {
    for (const [at, label] of times) {
      const wait = startedAt + at * 1000 - performance.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      await takeSample(label, (performance.now() - startedAt) / 1000)
    }
  })().finally(() => (sampled = true))

  // PostgreSQL connections between the samples too, for the peak.
  const pgPoll = setInterval(() => void pgConnections().catch(() => {}), 2000)
  let launched = 0
  const dispatch = setInterval(() => {
    const now = performance.now()
    const due = Math.floor(((now - startedAt) / 1000) * rate)
    for (; launched < due; launched++) {
      const scheduledAt = startedAt + (launched * 1000) / rate
      if (scheduledAt >= warmupEndsAt) dispatchLag.push(now - scheduledAt)
      const instance = instances[launched % 2]
      const request = actions[pickKind()](instance).finally(() => inFlight.delete(request))
      inFlight.add(request)
    }
    peakInFlight = Math.max(peakInFlight, inFlight.size)
    if (sampled) clearInterval(dispatch)
  }, 5)
  try {
    await sampling
  } finally {
    clearInterval(dispatch)
    clearInterval(pgPoll)
  }
  trafficS = (performance.now() - startedAt) / 1000
  // What is still in flight finishes (within the timeout) before the servers stop.
  await Promise.allSettled([...inFlight])
}

const runStarted = new Date()
printEnvironment({
  rate: `${rate} req/s`,
  duration: `${durationS} s (warm-up ${warmupS} s)`,
  sample: `every ${sampleS} s`,
  learners: learnerCount,
  database: 'PostgreSQL (fresh database of TEST_DATABASE_URL) + Redis (TEST_REDIS_URL, own prefix)',
})

database = await createPgDatabase(adminUrl)
redis = await createRedisNamespace(redisUrl)
const { default: pg } = await import('pg')
pgClient = new pg.Client({ connectionString: adminUrl })
await pgClient.connect()
const dataDir = await makeTempDir('lingua-bench-soak-')
const [portA, portB] = [await freePort(), await freePort()]
appUrl = `http://127.0.0.1:${portA}`
const sharedEnv = {
  // One public origin for both, as behind a balancer: better-auth refuses a POST whose Origin is
  // not APP_URL, and every emailed link points there.
  APP_URL: appUrl,
  REDIS_URL: redisUrl,
  REDIS_KEY_PREFIX: redis.prefix,
  ADMIN_EMAILS: adminEmail,
  // All traffic comes from 127.0.0.1: at ×10 000 the per-address limits (10 sign-ins, 100 other
  // auth requests a minute…) are far above any --rate, so no sign-in or session read is refused.
  AUTH_RATE_LIMIT_SCALE: '10000',
}
const probeFileOf = (name) => path.join(dataDir, `probe-${name}.jsonl`)
const serverOptions = (name, port) => ({
  // Both write their outbox (the verification emails) into the shared DATA_DIR, as on one volume.
  dataDir,
  databaseUrl: database.url,
  port,
  env: { ...sharedEnv, SOAK_PROBE_FILE: probeFileOf(name) },
  nodeArgs: ['--expose-gc', `--import=${pathToFileURL(probeFile).href}`],
})

const makeInstance = (name, server) =>
  ({ name, server, url: server.url, probeFile: probeFileOf(name), probeLines: 0, requests: 0, failures: 0, latencies: [] })

try {
  await withServer(serverOptions('A', portA), (serverA) =>
    withServer(serverOptions('B', portB), async (serverB) => {
      instances.push(makeInstance('A', serverA), makeInstance('B', serverB))
      console.log(`instances: A ${serverA.url}, B ${serverB.url}; APP_URL ${appUrl}; REDIS_KEY_PREFIX ${redis.prefix}\n`)

      // The administrator and the learners, each signed in by the link of their verification email.
      const adminJar = await registerAndVerify(serverA, { name: 'Soak Admin', email: adminEmail, password })
      admin = { jar: new Map(Object.entries(adminJar)) }
      learners = []
      for (let i = 0; i < learnerCount; i += 5) {
        const batch = Array.from({ length: Math.min(5, learnerCount - i) }, (_, j) => ({
          name: `Soak Learner ${i + j + 1}`,
          email: `soak-learner-${i + j + 1}@example.com`,
          password,
        }))
        const jars = await Promise.all(batch.map((account) => registerAndVerify(serverA, account)))
        batch.forEach((account, j) => learners.push({ email: account.email, jar: new Map(Object.entries(jars[j])), signingIn: false }))
      }
      const page = await (await fetch(`${serverA.url}/api/language-levels?pageSize=100`)).json()
      levels = page.items.map(({ id, position, version, name }) => ({ id, position, version, name, editing: false, versionUnknown: false }))
      if (levels.length === 0) throw new Error('no language levels: the seed migration did not run')
      // An administrators' read (the role is read from the database, the session's copy may be older).
      const usage = await fetch(`${serverB.url}/api/language-levels/${levels[0].id}/usage`, { headers: { Cookie: cookieString(adminJar) } })
      if (usage.status !== 200) throw new Error(`${adminEmail} is not an administrator (ADMIN_EMAILS): ${usage.status}`)
      console.log(`accounts: 1 administrator, ${learners.length} learners; ${levels.length} levels\n`)

      await takeSample('idle', 0)
      await drive()
      assertBuildUnchanged(serverA)
      assertBuildUnchanged(serverB)
    }),
  )
} finally {
  await pgClient.end().catch(() => {})
  await Promise.all([database.drop(), redis.drop(), removeDir(dataDir)])
}

// --- Report --------------------------------------------------------------------------------------

const measuredS = durationS - warmupS
const fmt = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–')
const describeMap = (map) => [...map].map(([key, n]) => `${n}× ${key}`).join(', ')

console.log(`\nRequests (whole run, ${fmt(trafficS)} s) and latency (after the ${warmupS} s warm-up, from send to the last byte):\n`)
const kindRows = Object.values(kinds).map((kind) => ({
  kind: kind.label,
  requests: kind.requests,
  rps: fmt(kind.requests / trafficS),
  expected: kind.expected,
  other4xx: sumMap(kind.otherClientErrors),
  failures: sumMap(kind.failures),
  p50: fmt(percentile(kind.latencies, 50)),
  p99: fmt(percentile(kind.latencies, 99)),
  max: fmt(Math.max(...kind.latencies)),
}))
const all = Object.values(kinds).flatMap((kind) => kind.latencies)
kindRows.push({
  kind: 'all',
  requests: totalRequests(),
  rps: fmt(totalRequests() / trafficS),
  expected: Object.values(kinds).reduce((sum, k) => sum + k.expected, 0),
  other4xx: Object.values(kinds).reduce((sum, k) => sum + sumMap(k.otherClientErrors), 0),
  failures: totalFailures(),
  p50: fmt(percentile(all, 50)),
  p99: fmt(percentile(all, 99)),
  max: fmt(Math.max(...all)),
})
printTable(kindRows, [
  { key: 'kind', label: 'kind', align: 'left' },
  { key: 'requests', label: 'requests', align: 'right' },
  { key: 'rps', label: 'req/s', align: 'right' },
  { key: 'expected', label: 'as expected', align: 'right' },
  { key: 'other4xx', label: 'other 4xx', align: 'right' },
  { key: 'failures', label: 'failures', align: 'right' },
  { key: 'p50', label: 'p50 ms', align: 'right' },
  { key: 'p99', label: 'p99 ms', align: 'right' },
  { key: 'max', label: 'max ms', align: 'right' },
])
for (const kind of Object.values(kinds)) {
  if (kind.otherClientErrors.size > 0) console.log(`  other 4xx, ${kind.label}: ${describeMap(kind.otherClientErrors)}`)
  if (kind.failures.size > 0) {
    console.log(`  failures, ${kind.label}: ${describeMap(kind.failures)} (${kind.warmupFailures} in the warm-up)`)
  }
}
console.log(
  `  per instance: ${instances.map((i) => `${i.name} ${i.requests} requests, ${i.failures} failures, p50 ${fmt(percentile(i.latencies, 50))} ms, p99 ${fmt(percentile(i.latencies, 99))} ms`).join('; ')}`,
)
console.log(
  `  driver: dispatch lag p99 ${fmt(percentile(dispatchLag, 99))} ms (max ${fmt(Math.max(...dispatchLag))}), peak ${peakInFlight} requests in flight`,
)

console.log(
  '\nSamples (memory after a full collection; RSS floor: the lowest of 10 reads over 1 s; loop delay, CPU (% of one core) and failures since the previous sample):\n',
)
const sampleRows = samples.flatMap((s, n) =>
  s.instances.map((m, i) => ({
    t: s.t,
    label: s.label,
    instance: instances[i].name,
    rss: fmt(m.memory.rss / 1024 ** 2),
    rssFloor: fmt(m.rssFloor / 1024 ** 2),
    heap: fmt(m.memory.heapUsed / 1024 ** 2),
    handles: m.handles,
    fds: m.fds,
    clients: m.clients,
    pgOwn: m.pg,
    timers: m.resources.Timeout ?? 0,
    loopP99: fmt(m.loop.p99),
    loopMax: fmt(m.loop.max),
    cpu: fmt(m.cpuPercent, 0),
    pg: i === 0 ? `${s.pg.total} (${s.pg.active} active)` : '',
    redis: i === 0 ? s.redisKeys : '',
    load: i === 0 ? s.load.toFixed(2) : '',
    failed: i === 0 ? s.failures - (samples[n - 1]?.failures ?? 0) : '',
  })),
)
printTable(sampleRows, [
  { key: 't', label: 't s', align: 'right' },
  { key: 'label', label: '', align: 'left' },
  { key: 'instance', label: 'inst', align: 'left' },
  { key: 'rss', label: 'RSS MB', align: 'right' },
  { key: 'rssFloor', label: 'RSS floor', align: 'right' },
  { key: 'heap', label: 'heap MB', align: 'right' },
  { key: 'handles', label: 'handles', align: 'right' },
  { key: 'fds', label: 'fds', align: 'right' },
  { key: 'clients', label: 'client conns', align: 'right' },
  { key: 'pgOwn', label: 'its PG conns', align: 'right' },
  { key: 'timers', label: 'timers', align: 'right' },
  { key: 'loopP99', label: 'loop p99 ms', align: 'right' },
  { key: 'loopMax', label: 'loop max ms', align: 'right' },
  { key: 'cpu', label: 'CPU %', align: 'right' },
  { key: 'pg', label: 'PG conns of the db', align: 'right' },
  { key: 'redis', label: 'Redis keys', align: 'right' },
  { key: 'load', label: 'load 1m', align: 'right' },
  { key: 'failed', label: 'failures', align: 'right' },
])

// Trend: the end against the middle, both after the warm-up.
const at = (label) => samples.find((s) => s.label === label)
const [start, middle, end] = ['start', 'middle', 'end'].map(at)
// Handles and descriptors without the client connections (see clientConnections): what is left is
// the server's own (listening socket, database and Redis connections, timers, files).
const metrics = [
  { label: 'RSS floor MB', value: (m) => m.rssFloor, show: mb, floor: growth.rssBytes, judged: true },
  { label: 'RSS MB (one read)', value: (m) => m.memory.rss, show: mb, floor: growth.rssBytes, judged: false },
  { label: 'handles − client conns', value: (m) => m.handles - m.clients, show: (v) => v, floor: growth.handles, judged: true },
  { label: 'open fds − client conns', value: (m) => m.fds - m.clients, show: (v) => v, floor: growth.fds, judged: true },
  { label: 'heap used MB', value: (m) => m.memory.heapUsed, show: mb, floor: growth.heapBytes, judged: false },
  { label: 'client conns', value: (m) => m.clients, show: (v) => v, floor: growth.handles, judged: false },
]
const grew = (from, to, floor) => to > from * growth.ratio && to - from > floor
/** Least-squares slope per minute of `value` over the samples from the end of the warm-up on. */
function slopePerMinute(i, value) {
  const points = samples.filter((s) => s.t >= start.t).map((s) => [s.t / 60, value(s.instances[i])])
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length
  const sxx = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0)
  return sxx === 0 ? Number.NaN : points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0) / sxx
}
const trendRows = []
for (const [i, instance] of instances.entries()) {
  for (const metric of metrics) {
    const [s, m, e] = [start, middle, end].map((sample) => metric.value(sample.instances[i]))
    const up = grew(m, e, metric.floor)
    const slope = slopePerMinute(i, metric.value)
    trendRows.push({
      instance: instance.name,
      metric: metric.label,
      start: metric.show(s),
      middle: metric.show(m),
      end: metric.show(e),
      change: `${e >= m ? '+' : ''}${metric.show(e - m)} (${fmt(((e - m) / m) * 100)} %)`,
      slope: Number.isFinite(slope) ? `${slope >= 0 ? '+' : ''}${metric.show === mb ? fmt(slope / 1024 ** 2, 2) : fmt(slope, 2)}` : '–',
      verdict: up ? (metric.judged ? 'growth' : 'growth, not judged') : 'flat',
      judged: metric.judged,
      up,
    })
  }
}
console.log(
  `\nTrend after the warm-up, middle (t=${middle.t} s) → end (t=${end.t} s); growth = end > middle by more than ` +
    `${Math.round((growth.ratio - 1) * 100)} % and ${mb(growth.rssBytes)} MB RSS / ${growth.handles} handles / ${growth.fds} fds ` +
    `(RSS judged on its floor over 1 s; one read, heap and client connections shown, not judged); slope: least squares over every sample from the start:\n`,
)
printTable(trendRows, [
  { key: 'instance', label: 'inst', align: 'left' },
  { key: 'metric', label: 'metric', align: 'left' },
  { key: 'start', label: 'start', align: 'right' },
  { key: 'middle', label: 'middle', align: 'right' },
  { key: 'end', label: 'end', align: 'right' },
  { key: 'change', label: 'middle → end', align: 'right' },
  { key: 'slope', label: 'slope /min', align: 'right' },
  { key: 'verdict', label: 'trend', align: 'left' },
])

const measuredSamples = samples.filter((s) => s.t >= warmupS - 1)
const loopP99 = instances.map((_, i) => measuredSamples.slice(1).map((s) => s.instances[i].loop.p99))
const failures = totalFailures()
const growthFound = trendRows.filter((r) => r.judged && r.up)
const checks = [
  ['failures (network, timeout, 5xx, wrong success)', String(failures), '0', failures === 0],
  [
    'growth of RSS, handles or fds (without client conns), middle → end',
    growthFound.length === 0 ? 'none' : growthFound.map((r) => `${r.instance} ${r.metric} ${r.change}`).join('; '),
    'none',
    growthFound.length === 0,
  ],
]
console.log('')
printTable(
  checks.map(([figure, value, target, ok]) => ({ figure, value, target, verdict: verdict(ok) })),
  [
    { key: 'figure', label: 'target', align: 'left' },
    { key: 'value', label: 'value', align: 'right' },
    { key: 'target', label: 'wanted', align: 'right' },
    { key: 'verdict', label: '', align: 'left' },
  ],
)
console.log(
  `\nevent-loop delay p99 per ${sampleS} s window after the warm-up: ` +
    instances.map((instance, i) => `${instance.name} median ${fmt(median(loopP99[i]))} ms, worst ${fmt(Math.max(...loopP99[i]))} ms`).join('; ') +
    `\nPostgreSQL connections of the database: peak ${pgPeak.connections} (of 2 × 10), at the end ${end.pg.total}` +
    `\nload average at the end: ${os.loadavg().map((v) => v.toFixed(2)).join(' ')} (${os.cpus().length} cores)`,
)
// Two servers, PostgreSQL and this script share the cores with whatever else runs: with the load
// far above the core count, each gets a fraction of one, requests pile up (the open loop does not
// wait), time out, and sign-ins queue so that a hash is always under way (RSS floor + 32 MiB each).
const busiest = Math.max(...measuredSamples.map((s) => s.load))
if (busiest > 2 * os.cpus().length) {
  console.log(
    `\nnote: the load average reached ${busiest.toFixed(2)} on ${os.cpus().length} cores after the warm-up; failures and ` +
      'RSS taken then say as much about the other processes as about the app (see the failures per sample).',
  )
}

// The servers' own warnings and errors (LOG_LEVEL=warn): anything here is worth a look.
for (const instance of instances) {
  const lines = instance.server.output.filter((line) => line.trim())
  if (lines.length === 0) continue
  const messages = new Map()
  for (const line of lines) {
    let message = line.slice(0, 160)
    try {
      const parsed = JSON.parse(line)
      message = `${parsed.level >= 50 ? 'error' : 'warn'}: ${parsed.msg}${parsed.err?.message ? ` (${parsed.err.message.slice(0, 100)})` : ''}`
    } catch {
      // stderr and better-auth's own lines are not JSON.
    }
    increment(messages, message)
  }
  console.log(`\n${instance.name} logged ${lines.length} lines at warn or above:`)
  for (const [message, n] of [...messages].slice(0, 8)) console.log(`  ${n}× ${message}`)
}

const summaryOf = (m) => ({
  rssMb: mb(m.memory.rss),
  rssFloorMb: mb(m.rssFloor),
  heapMb: mb(m.memory.heapUsed),
  handles: m.handles,
  fds: m.fds,
  clientConnections: m.clients,
  pgConnections: m.pg,
  loopP99Ms: m.loop.p99,
  cpuPercent: round(m.cpuPercent, 0),
})
printSummary('soak', {
  startedAt: runStarted.toISOString(),
  rate,
  durationS,
  warmupS,
  measuredS,
  trafficS: round(trafficS),
  learners: learnerCount,
  requests: totalRequests(),
  failures,
  otherClientErrors: kindRows.at(-1).other4xx,
  kinds: Object.fromEntries(
    Object.entries(kinds).map(([name, kind]) => [
      name,
      {
        requests: kind.requests,
        expected: kind.expected,
        other4xx: Object.fromEntries(kind.otherClientErrors),
        failures: Object.fromEntries(kind.failures),
        p50Ms: round(percentile(kind.latencies, 50), 2),
        p99Ms: round(percentile(kind.latencies, 99), 2),
      },
    ]),
  ),
  instances: Object.fromEntries(
    instances.map((instance, i) => [
      instance.name,
      {
        start: summaryOf(start.instances[i]),
        middle: summaryOf(middle.instances[i]),
        end: summaryOf(end.instances[i]),
        loopP99MedianMs: round(median(loopP99[i]), 2),
        loopP99WorstMs: round(Math.max(...loopP99[i]), 2),
      },
    ]),
  ),
  pgConnections: { start: start.pg.total, middle: middle.pg.total, end: end.pg.total, peak: pgPeak.connections },
  redisKeys: { start: start.redisKeys, middle: middle.redisKeys, end: end.redisKeys },
  loadavg: os.loadavg().map((v) => round(v, 2)),
  peakLoadavg: round(busiest, 2),
  growth: growthFound.map((r) => `${r.instance} ${r.metric}`),
  pass: failures === 0 && growthFound.length === 0,
})
