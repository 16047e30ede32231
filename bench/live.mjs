// Live updates at scale and the cached public list, on two instances of the built app sharing one
// fresh PostgreSQL database of TEST_DATABASE_URL (dropped afterwards), in one run:
//   - 5,000 Server-Sent Events streams (GET /api/events) on instance A from a load client in this
//     process (bench/live-clients.mjs, a worker thread per instance): A's RSS per 1,000 streams and
//     open files, then A's CPU over 30 s with nothing but the heartbeats;
//   - 200 more streams on instance B, then 50 level changes through A's API (PATCH, one every
//     200 ms): the delay from sending each change to its `levels` event reaching each stream, p50,
//     p99 and max, on A and on B (B hears it through PostgreSQL's LISTEN/NOTIFY);
//   - every stream closed by the client: how long A takes to let their sockets go;
//   - with the streams closed and B stopped, wrk on A's cached GET /api/language-levels against
//     bench/live-bare.mjs (node:http answering the very same bytes from memory), and the uncached
//     path (every request a cache miss, bench/lib/wrk-cache-miss.lua) against
//     bench/api-baseline.mjs, as bench/api.mjs compared them before the cache.
// Targets: p99 delivery on B ≤ 1 s, cached ≥ 0.8 × bare, uncached ≥ 0.8 × baseline; every stream
// opened and every event delivered. Judged only while the load average stays below the core count.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/live.mjs
//     [--clients=5000] [--clients-b=200] [--batch=250] [--changes=50] [--interval=200] [--idle=30]
//     [--duration=10s] [--connections=64] [--threads=2] [--warmup=2s]
import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Worker } from 'node:worker_threads'
import pg from 'pg'
import {
  appRequest,
  assertBuildUnchanged,
  createPgDatabase,
  freePort,
  makeTempDir,
  parseArgs,
  percentile,
  printEnvironment,
  printSummary,
  printTable,
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
requireCommand('prlimit', 'apt-get install util-linux')

const args = parseArgs()
const { wrkOptions, warmup } = wrkSettings(args)
const options = {
  clientsA: Number(args.clients ?? 5000),
  clientsB: Number(args['clients-b'] ?? 200),
  batch: Number(args.batch ?? 250),
  changes: Number(args.changes ?? 50),
  intervalMs: Number(args.interval ?? 200),
  idleS: Number(args.idle ?? 30),
}
const adminUrl = process.env.TEST_DATABASE_URL || undefined
if (!adminUrl) {
  console.error(
    'bench/live.mjs needs TEST_DATABASE_URL (a PostgreSQL URL of a user allowed to create databases, ' +
      'e.g. postgres://postgres@127.0.0.1:5432/test): two instances share one database.',
  )
  process.exit(2)
}

const targets = { deliveryP99Ms: 1000, cachedToBare: 0.8, uncachedToBaseline: 0.8 }
const admin = { name: 'Bench Admin', email: 'live-admin@example.com', password: 'correct horse battery staple 42' }
const cachedPath = '/api/language-levels?sort=position&page=1&pageSize=100'
const baselinePath = '/api/language-levels'
const cores = os.cpus().length
const now = () => performance.timeOrigin + performance.now()

// ---------------------------------------------------------------------------------------------
// The open-files limit. Node cannot call setrlimit (and raises its soft limit to the hard one at
// start): prlimit sets this process's own, which the servers and wrk inherit; above the hard limit
// only with CAP_SYS_RESOURCE, else the hard limit is what there is.

const wantedOpenFiles = 65536

/** "Max open files" of /proc/<pid>/limits: { soft, hard }. */
function openFilesLimit(pid = 'self') {
  const line = readFileSync(`/proc/${pid}/limits`, 'utf8').split('\n').find((l) => l.startsWith('Max open files'))
  const [soft, hard] = line.slice('Max open files'.length).trim().split(/\s+/).map(Number)
  return { soft, hard }
}

function raiseOpenFiles() {
  for (const limit of [wantedOpenFiles, openFilesLimit().hard]) {
    if (openFilesLimit().soft >= limit) break
    spawnSync('prlimit', [`--pid=${process.pid}`, `--nofile=${limit}:${Math.max(limit, openFilesLimit().hard)}`])
  }
  // What a child process gets, as a shell sees it.
  const shell = spawnSync('sh', ['-c', 'echo "$(ulimit -n) $(ulimit -Hn)"'], { encoding: 'utf8' }).stdout.trim().split(' ')
  return { soft: Number(shell[0]), hard: Number(shell[1]) }
}

const openFiles = raiseOpenFiles()
// The load client holds every stream of both instances; A holds its own and a few hundred files more.
if (openFiles.soft < options.clientsA + options.clientsB + 1024) {
  console.error(
    `The open-files limit is ${openFiles.soft} (hard ${openFiles.hard}): too low for ${options.clientsA + options.clientsB} ` +
      'streams. Raise it (`ulimit -n 65536` as root, or LimitNOFILE) or ask for fewer --clients.',
  )
  process.exit(2)
}

// ---------------------------------------------------------------------------------------------
// A process, from /proc: RSS, open files, CPU time.

const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100
const rssBytes = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024
const openFds = (pid) => readdirSync(`/proc/${pid}/fd`).length
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1)

/** User + system CPU seconds of `pid` since it started (all its threads). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // The fields after the command name, which may hold spaces: utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / clockTicks
}

/** The lowest of `reads` reads of RSS, 200 ms apart: what stays, not a collection under way. */
async function rssFloor(pid, reads = 5) {
  let lowest = Infinity
  for (let i = 0; i < reads; i++) {
    lowest = Math.min(lowest, rssBytes(pid))
    if (i < reads - 1) await sleep(200)
  }
  return lowest
}

/** The 1-minute load average at each step (printed); above the core count at the start, the targets are not judged. */
const loads = []
const noteLoad = (step) => loads.push({ step, load: os.loadavg()[0] })

// ---------------------------------------------------------------------------------------------
// The load client: one worker thread per instance (bench/live-clients.mjs).

function startClients(server) {
  const worker = new Worker(new URL('./live-clients.mjs', import.meta.url), { workerData: { url: server.url } })
  return {
    /** Sends `message`; resolves to the worker's answer (rejects when the worker fails). */
    async ask(message) {
      worker.postMessage(message)
      const [answer] = await once(worker, 'message')
      return answer
    },
    stop: () => worker.terminate(),
  }
}

/** Opens `count` streams; prints and returns how many opened and why the others did not. */
async function openStreams(clients, name, count) {
  const result = await clients.ask({ type: 'open', count, batch: options.batch, timeoutMs: 30_000 })
  const failed = Object.entries(result.failures).map(([reason, n]) => `${n}× ${reason}`)
  console.log(
    `${name}: ${result.opened}/${count} streams open in ${(result.ms / 1000).toFixed(1)} s (${options.batch} at a time)` +
      (failed.length > 0 ? `; failed: ${failed.join(', ')}` : ''),
  )
  return result
}

/** Resident memory and open files of A before and after its streams open. */
async function streamMemory(a, clients) {
  const pid = a.child.pid
  const before = { rss: await rssFloor(pid), fds: openFds(pid) }
  const opened = await openStreams(clients, 'A', options.clientsA)
  noteLoad('streams open on A')
  await sleep(2000)
  const after = { rss: await rssFloor(pid), fds: openFds(pid) }
  const perThousand = opened.opened > 0 ? ((after.rss - before.rss) / opened.opened) * 1000 : Number.NaN
  console.log(
    `A: RSS ${mb(before.rss)} → ${mb(after.rss)} MB (${mb(perThousand)} MB per 1,000 streams), ` +
      `open files ${before.fds} → ${after.fds}`,
  )
  return { opened, before, after, perThousand }
}

/** CPU of each instance and of this process (the load client) over `idleS` of heartbeats only. */
async function idleCpu(instances, clients) {
  const heartbeatsBefore = (await clients.ask({ type: 'arrivals' })).heartbeats
  const start = { at: now(), own: process.cpuUsage(), servers: instances.map((s) => cpuSeconds(s.child.pid)) }
  await sleep(options.idleS * 1000)
  const seconds = (now() - start.at) / 1000
  const own = process.cpuUsage(start.own)
  const result = {
    seconds,
    percent: instances.map((s, i) => ((cpuSeconds(s.child.pid) - start.servers[i]) / seconds) * 100),
    clientPercent: ((own.user + own.system) / 1e6 / seconds) * 100,
    heartbeats: (await clients.ask({ type: 'arrivals' })).heartbeats - heartbeatsBefore,
  }
  noteLoad('idle')
  console.log(
    `idle ${seconds.toFixed(1)} s: CPU A ${result.percent[0].toFixed(2)} %, B ${result.percent[1].toFixed(2)} % of one core; ` +
      `load client ${result.clientPercent.toFixed(2)} %; ${result.heartbeats} heartbeats read on A's streams`,
  )
  return result
}

/** `changes` renames of one level through A, one every `intervalMs`: when each was sent and answered. */
async function changeLevels(a, cookies) {
  const { json: page } = await appRequest(a, 'GET', cachedPath)
  const level = page.items[0]
  let version = level.version
  const sent = []
  for (let i = 0; i < options.changes; i++) {
    // Alternately renamed and named back, so that every PATCH changes something.
    const name = i % 2 === 0 ? `${level.name} (bench)` : level.name
    const sentAt = now()
    const { json } = await appRequest(a, 'PATCH', `/api/language-levels/${level.id}`, { body: { name, version }, cookies })
    sent.push({ sentAt, answerMs: now() - sentAt })
    version = json.version
    await sleep(Math.max(0, sentAt + options.intervalMs - now()))
  }
  return sent
}

/** Every stream's arrivals, once they are all in (or 10 s after the last change). */
async function collectArrivals(clients, streams) {
  const deadline = now() + 10_000
  for (;;) {
    const arrivals = await Promise.all(clients.map((c) => c.ask({ type: 'arrivals' })))
    const received = arrivals.reduce((sum, a) => sum + Object.values(a.byId).reduce((n, times) => n + times.length, 0), 0)
    if (received >= streams * options.changes || now() > deadline) return arrivals
    await sleep(500)
  }
}

/**
 * The delay from sending each change to its event on each stream. The events are matched to the
 * changes by order: the ids are in commit order, and each change was answered before the next was sent.
 */
function deliveryDelays(sent, arrivals, opened) {
  const ids = [...new Set(arrivals.flatMap((a) => Object.keys(a.byId).map(Number)))].sort((x, y) => x - y)
  if (ids.length !== sent.length) {
    throw new Error(`${sent.length} changes made, ${ids.length} distinct levels events received`)
  }
  return arrivals.map((a, i) => {
    const delays = ids.flatMap((id, k) => (a.byId[id] ?? []).map((at) => at - sent[k].sentAt))
    return {
      delays,
      missed: opened[i] * sent.length - delays.length,
      p50: percentile(delays, 50),
      p99: percentile(delays, 99),
      max: percentile(delays, 100),
      ended: a.ended,
    }
  })
}

const releaseLimitS = 45

/**
 * How long A keeps the sockets of streams whose clients went away: seconds until its open files are
 * back near `baselineFds` (NaN when not within `releaseLimitS`), and the open files then.
 */
async function releaseTime(pid, baselineFds) {
  const started = now()
  for (;;) {
    const fds = openFds(pid)
    const seconds = (now() - started) / 1000
    if (fds <= baselineFds + 10) return { seconds, fds }
    if (seconds > releaseLimitS) return { seconds: Number.NaN, fds }
    await sleep(250)
  }
}

/** Streams on A and B, A's memory and idle CPU, then the changes and their delivery. */
async function liveFigures(a, b, cookies) {
  const clients = [startClients(a), startClients(b)]
  try {
    const memory = await streamMemory(a, clients[0])
    const openedB = await openStreams(clients[1], 'B', options.clientsB)
    const idle = await idleCpu([a, b], clients[0])
    const sent = await changeLevels(a, cookies)
    noteLoad('changes')
    const arrivals = await collectArrivals(clients, memory.opened.opened + openedB.opened)
    const [onA, onB] = deliveryDelays(sent, arrivals, [memory.opened.opened, openedB.opened])
    const answers = sent.map((s) => s.answerMs)
    console.log(
      `${sent.length} changes through A (PATCH answered in p50 ${percentile(answers, 50).toFixed(1)} ms, ` +
        `max ${Math.max(...answers).toFixed(1)} ms); delivery p50/p99/max: ` +
        `A ${onA.p50.toFixed(1)}/${onA.p99.toFixed(1)}/${onA.max.toFixed(1)} ms, ` +
        `B ${onB.p50.toFixed(1)}/${onB.p99.toFixed(1)}/${onB.max.toFixed(1)} ms`,
    )
    await Promise.all(clients.map((c) => c.ask({ type: 'close' })))
    const release = await releaseTime(a.child.pid, memory.before.fds)
    console.log(
      `streams closed by the client: A's open files ${memory.after.fds} → ${release.fds}, ` +
        (Number.isNaN(release.seconds) ? `still after ${releaseLimitS} s` : `back after ${release.seconds.toFixed(1)} s`),
    )
    return { memory, openedB, idle, sent, answers, onA, onB, release }
  } finally {
    await Promise.all(clients.map((c) => c.stop()))
  }
}

// ---------------------------------------------------------------------------------------------
// The list under wrk.

/**
 * A counter of the database's transactions (committed or rolled back; each statement outside one is
 * one), without this client's own reads. A backend reports its own to pg_stat_database within about
 * a second of going idle: it reads until nothing but its own read was added.
 */
function transactionCounter(client) {
  let ownReads = 0
  const read = async () => {
    ownReads++
    const { rows } = await client.query(
      'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()',
    )
    return Number(rows[0].n)
  }
  return async () => {
    let previous = await read()
    for (let tries = 0; tries < 10; tries++) {
      await sleep(1000)
      const current = await read()
      if (current - previous <= 1) break
      previous = current
    }
    return previous - ownReads
  }
}

/**
 * Warm-up then wrk on `url` (with `script` when given); with `transactions` (a transactionCounter),
 * the database's transactions per request over both.
 */
async function measure(name, url, { script, transactions } = {}) {
  const run = (opts) => runWrk(url, { ...opts, script })
  const xactsBefore = transactions ? await transactions() : 0
  const warm = warmup !== '0' && warmup !== '0s' ? await run({ ...wrkOptions, duration: warmup }) : { requests: 0 }
  const result = await run(wrkOptions)
  const xactsPerRequest = transactions ? ((await transactions()) - xactsBefore) / (warm.requests + result.requests) : undefined
  noteLoad(name)
  const errors = Object.values(result.socketErrors).reduce((x, y) => x + y, 0)
  console.log(
    `${name}: ${result.requestsPerSec.toFixed(0)} req/s, p50 ${result.percentiles.p50?.toFixed(2)} ms, ` +
      `p99 ${result.percentiles.p99?.toFixed(2)} ms` +
      (transactions ? `, ${xactsPerRequest.toFixed(2)} database transactions a request` : ''),
  )
  return { name, ...result, errors, xactsPerRequest }
}

/** A's cached list against the bare server, then the uncached path against the baseline. */
async function listFigures(a, databaseUrl, dir) {
  // The bytes and headers the bare server answers: A's own answer.
  const answer = await fetch(a.url + cachedPath)
  if (answer.status !== 200) throw new Error(`GET ${cachedPath} answered ${answer.status}`)
  const bodyFile = path.join(dir, 'list.json')
  await writeFile(bodyFile, Buffer.from(await answer.arrayBuffer()))
  const headers = Object.fromEntries(
    ['Content-Type', 'Cache-Control', 'ETag'].flatMap((name) => (answer.headers.has(name) ? [[name, answer.headers.get(name)]] : [])),
  )
  const bareEnv = { BODY_FILE: bodyFile, BODY_URL: cachedPath, BODY_HEADERS: JSON.stringify(headers) }
  const db = new pg.Client({ connectionString: databaseUrl })
  await db.connect()
  const transactions = transactionCounter(db)
  try {
    const bare = await withServer({ entry: path.join(import.meta.dirname, 'live-bare.mjs'), dataDir: dir, env: bareEnv }, (s) =>
      measure('bare node:http, same bytes from memory', s.url + cachedPath),
    )
    const cached = await measure(`A GET ${cachedPath} (cached)`, a.url + cachedPath, { transactions })

    // Every request a miss: a page past the last level, never asked for lately.
    const miss = await appRequest(a, 'GET', '/api/language-levels?sort=position&page=2&pageSize=20')
    if (miss.json.items.length !== 0) throw new Error('page 2 of 20 is not empty: the cache-miss run would not be like the baseline')
    const [baseline, uncached] = await withServer(
      { databaseUrl, entry: path.join(import.meta.dirname, 'api-baseline.mjs') },
      async (s) => [
        await measure(`baseline GET ${baselinePath} (bench/api-baseline.mjs)`, s.url + baselinePath, { transactions }),
        await measure('A GET /api/language-levels?page=<new> (cache miss)', a.url + baselinePath, {
          transactions,
          script: path.join(import.meta.dirname, 'lib', 'wrk-cache-miss.lua'),
        }),
      ],
    )
    return { bare, cached, baseline, uncached }
  } finally {
    await db.end()
  }
}

// ---------------------------------------------------------------------------------------------
// The run.

printEnvironment({
  streams: `${options.clientsA} on A, ${options.clientsB} on B`,
  changes: `${options.changes} every ${options.intervalMs} ms`,
  idle: `${options.idleS} s`,
  wrk: `-t${wrkOptions.threads} -c${wrkOptions.connections} -d${wrkOptions.duration} --latency`,
  warmup,
  'open files (ulimit -n)': `${openFiles.soft} (hard ${openFiles.hard}${openFiles.soft < wantedOpenFiles ? `; ${wantedOpenFiles} refused` : ''})`,
})
noteLoad('start')

const database = await createPgDatabase(adminUrl)
const dataDir = await makeTempDir('lingua-bench-data-')
const [portA, portB] = [await freePort(), await freePort()]
// Each instance its own APP_URL (the Origin its writes must carry); one DATA_DIR for the outbox.
const instanceOptions = (port) => ({
  dataDir,
  databaseUrl: database.url,
  port,
  // Thousands of streams from this one address: the cap per client is not what is measured.
  env: {
    APP_URL: `http://127.0.0.1:${port}`,
    ADMIN_EMAILS: admin.email,
    AUTH_RATE_LIMIT_SCALE: '10000',
    LIVE_STREAMS_PER_SESSION: '100000',
    LIVE_STREAMS_PER_ADDRESS: '100000',
  },
})
const serverLogs = {}

const outcome = await withServer(instanceOptions(portA), async (a) => {
  const session = await registerAndVerify(a, admin)
  const cookies = { [tokenCookie]: session[tokenCookie] }
  const live = await withServer(instanceOptions(portB), async (b) => {
    console.log(`A: ${a.url}, B: ${b.url}; open files allowed: A ${openFilesLimit(a.child.pid).soft}, B ${openFilesLimit(b.child.pid).soft}\n`)
    serverLogs.B = b.output
    return liveFigures(a, b, cookies)
  })
  console.log('')
  const lists = await listFigures(a, database.url, dataDir)
  assertBuildUnchanged(a)
  serverLogs.A = a.output
  return { live, lists }
}).finally(() => Promise.all([database.drop(), removeDir(dataDir)]))

// ---------------------------------------------------------------------------------------------
// The report.

const { live, lists } = outcome
noteLoad('end')
const busiest = Math.max(...loads.map((l) => l.load))
const cachedToBare = lists.cached.requestsPerSec / lists.bare.requestsPerSec
const uncachedToBaseline = lists.uncached.requestsPerSec / lists.baseline.requestsPerSec
const streamsWanted = options.clientsA + options.clientsB
const streamsOpen = live.memory.opened.opened + live.openedB.opened
const missed = live.onA.missed + live.onB.missed
const ms = (value) => `${value.toFixed(1)} ms`

console.log('\nlist throughput')
printWrkRuns([lists.bare, lists.cached, lists.baseline, lists.uncached], ['rps', 'p50', 'p99', 'max', 'requests', 'bad', 'xacts'], {
  xacts: { label: 'db xacts/req', value: (r) => (r.xactsPerRequest === undefined ? '' : r.xactsPerRequest.toFixed(2)) },
})

console.log('\nlive')
printTable(
  [
    { figure: 'streams open (A + B)', value: `${streamsOpen}/${streamsWanted}` },
    { figure: 'A: RSS per 1,000 streams', value: `${mb(live.memory.perThousand)} MB` },
    { figure: `A: RSS with ${live.memory.opened.opened} streams`, value: `${mb(live.memory.after.rss)} MB` },
    { figure: 'A: open files before / with its streams', value: `${live.memory.before.fds} / ${live.memory.after.fds}` },
    {
      figure: 'A: streams let go after their clients left',
      value: Number.isNaN(live.release.seconds) ? `not within ${releaseLimitS} s (${live.release.fds} files)` : `${live.release.seconds.toFixed(1)} s`,
    },
    { figure: 'A: CPU at idle (heartbeats only)', value: `${live.idle.percent[0].toFixed(2)} %` },
    { figure: 'B: CPU at idle', value: `${live.idle.percent[1].toFixed(2)} %` },
    { figure: 'load client: CPU at idle', value: `${live.idle.clientPercent.toFixed(2)} %` },
    { figure: 'PATCH answered, p50', value: ms(percentile(live.answers, 50)) },
    { figure: 'delivery on A, p50 / p99 / max', value: `${ms(live.onA.p50)} / ${ms(live.onA.p99)} / ${ms(live.onA.max)}` },
    { figure: 'delivery on B, p50 / p99 / max', value: `${ms(live.onB.p50)} / ${ms(live.onB.p99)} / ${ms(live.onB.max)}` },
    { figure: 'deliveries missed, streams ended by the server', value: `${missed}, ${live.onA.ended + live.onB.ended}` },
  ],
  [
    { key: 'figure', label: 'figure', align: 'left' },
    { key: 'value', label: 'value', align: 'right' },
  ],
)
console.log(
  '\nDelivery delay: from just before the PATCH was sent to the arrival of its event at the stream, as read by\n' +
    "the load client: an upper bound of commit → delivery (it includes the PATCH's own handling before the commit).\n" +
    'The uncached path: each request asks for a page past the last level never asked for lately, so it misses the\n' +
    "cache (≈ 2 database transactions a request, as the baseline); the app then answers an empty page, where the\n" +
    'baseline answers its 20 levels. `npm run bench:api` compares the default list, which the app now answers\n' +
    'from its cache after the first request, with the same baseline.',
)

const checks = [
  ['streams opened', `${streamsOpen}/${streamsWanted}`, 'all', streamsOpen === streamsWanted],
  ['deliveries missed', missed, '0', missed === 0],
  ['delivery p99 on B (other instance)', ms(live.onB.p99), `≤ ${targets.deliveryP99Ms} ms`, live.onB.p99 <= targets.deliveryP99Ms],
  ['cached list ÷ bare node:http', cachedToBare.toFixed(3), `≥ ${targets.cachedToBare}`, cachedToBare >= targets.cachedToBare],
  ['uncached list ÷ api-baseline', uncachedToBaseline.toFixed(3), `≥ ${targets.uncachedToBaseline}`, uncachedToBaseline >= targets.uncachedToBaseline],
]
console.log('')
printTargets(checks, { figure: 'target', target: 'wanted' })
console.log(`\nload average (1 min): ${loads.map((l) => `${l.load.toFixed(2)} ${l.step}`).join(', ')}; ${cores} cores`)

for (const [name, lines] of Object.entries(serverLogs)) {
  const logged = lines.filter((line) => line.trim())
  if (logged.length === 0) continue
  console.log(`\n${name} logged ${logged.length} lines at warn or above; the first:`)
  for (const line of logged.slice(0, 5)) console.log(`  ${line.slice(0, 200)}`)
}

const wrkFigures = (r) => ({
  requestsPerSec: round(r.requestsPerSec),
  p50Ms: round(r.percentiles.p50, 2),
  p99Ms: round(r.percentiles.p99, 2),
  non2xx3xx: r.non2xx3xx,
  socketErrors: r.errors,
  xactsPerRequest: r.xactsPerRequest === undefined ? undefined : round(r.xactsPerRequest, 2),
})
const delivery = (d) => ({ p50Ms: round(d.p50, 1), p99Ms: round(d.p99, 1), maxMs: round(d.max, 1), missed: d.missed })
printSummary('live', {
  options,
  wrk: wrkOptions,
  openFiles,
  streams: { wanted: streamsWanted, open: streamsOpen, failuresA: live.memory.opened.failures, failuresB: live.openedB.failures },
  rssPerThousandStreamsMb: round(live.memory.perThousand / 1024 / 1024, 2),
  rssMb: { before: round(live.memory.before.rss / 1024 / 1024), after: round(live.memory.after.rss / 1024 / 1024) },
  openFilesA: { before: live.memory.before.fds, with: live.memory.after.fds, afterRelease: live.release.fds },
  releaseSeconds: round(live.release.seconds, 1),
  idleCpuPercent: { a: round(live.idle.percent[0], 2), b: round(live.idle.percent[1], 2), client: round(live.idle.clientPercent, 2) },
  patchAnswerP50Ms: round(percentile(live.answers, 50), 1),
  deliveryA: delivery(live.onA),
  deliveryB: delivery(live.onB),
  bare: wrkFigures(lists.bare),
  cached: wrkFigures(lists.cached),
  baseline: wrkFigures(lists.baseline),
  uncached: wrkFigures(lists.uncached),
  cachedToBare: round(cachedToBare, 3),
  uncachedToBaseline: round(uncachedToBaseline, 3),
  targets,
  loadavg: { max: round(busiest, 2), cores, steps: Object.fromEntries(loads.map((l) => [l.step, round(l.load, 2)])) },
  pass: checks.every(([, , , ok]) => ok),
})
