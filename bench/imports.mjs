// Imports at size (docs/product.md §12), on PostgreSQL (TEST_DATABASE_URL, a fresh database) and on
// PGlite (a fresh DATA_DIR), in one run:
//   1. an Anki package (anki21b) of --notes (20,000) notes in --decks (100) decks, --reviews
//      (200,000) reviews and --images (500) PNGs of different bytes (small, or of about
//      --image-bytes each that do not compress: --image-bytes=620000 makes a package of about 300 MB,
//      the upload's limit), written by the tests' writer (tests/helpers/anki-large-package.ts,
//      loaded with tsx);
//   2. on each database, the built server; a learner uploads the package (POST /api/me/imports)
//      and polls GET /api/me/imports/{id} every 100 ms until it is done: the upload's time, the
//      import's (202 to done), notes a second, and the server's peak RSS above its idle RSS (a second
//      after sign-up; with --warm-queues=N, after N of the learner's queues, the first shown too), its child
//      processes included, with the processes of that moment, and the peak of their PSS (a page
//      they share counted once) above idle (/proc/<pid>/smaps_rollup, sampled every 100 ms from
//      before the upload to the end);
//   3. on PostgreSQL, the same learner imports --more (30,000) new cards into the same decks (50,000
//      cards in 100 decks, --due-share (5 %) of the learnt ones due), and a learner of the starter
//      set signs up (the course only, no deck; its 177 starter words learnt and due, made in SQL):
//      side by side, GET /api/me/practice/queue with wrk (bench/lib/wrk-learners.lua, the one
//      learner on every connection, -t2 -c16 -d10s after a 2 s warm-up; two turns each, in the
//      order A B B A, their figures together), then POST
//      /api/me/practice/reviews of each learner's due cards, each once (at most --grades=1000, the
//      first tenth a warm-up), --grade-connections (4) at a time from this process (a card is
//      graded once: wrk, which sends for a given time, would run out of cards): req/s, p50/p99,
//      CPU per request of the server and of PostgreSQL.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/imports.mjs
//       [--notes=20000 --reviews=200000 --images=500 --image-bytes=0 --decks=100 --more=30000 --due-share=0.05]
//       [--only=postgres|pglite] [--no-practice] [--keep-database] [--duration=10s --connections=16 --threads=2 --warmup=2s]
//       [--grades=1000 --grade-connections=4] [--warm-queues=0]
//
// No targets: figures to compare from run to run. Without TEST_DATABASE_URL, PGlite only.
import { readFileSync, readdirSync, rmSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { tsImport } from 'tsx/esm/api'
import { cpuPerRequest, cpuSnapshot, hostFigures, hostLine, loadAverages } from './lib/host.mjs'
import { learnerCookies, runLearnersWrk, settle } from './lib/learners.mjs'
import {
  appRequest,
  createPgDatabase,
  freePort,
  makeTempDir,
  parseArgs,
  parseDuration,
  printBusyNote,
  printEnvironment,
  printSummary,
  printTable,
  projectRoot,
  registerAndVerify,
  removeDir,
  requireBuild,
  requireCommand,
  round,
  startServer,
  wrkSettings,
} from './lib.mjs'

requireBuild()
const args = parseArgs()
const adminUrl = process.env.TEST_DATABASE_URL || undefined
const targets = (args.only ? [args.only] : ['postgres', 'pglite']).filter((target) => target !== 'postgres' || adminUrl)
const practice = !args['no-practice'] && targets.includes('postgres')
if (practice) requireCommand('wrk', 'apt-get install wrk')
const spec = {
  notes: Number(args.notes ?? 20_000),
  reviews: Number(args.reviews ?? 200_000),
  images: Number(args.images ?? 500),
  imageBytes: Number(args['image-bytes'] ?? 0),
  decks: Number(args.decks ?? 100),
  dueShare: Number(args['due-share'] ?? 0.05),
}
const more = Number(args.more ?? 30_000)
/** Due cards each learner grades (the starter set has 177 words: all of them), and how many at once. */
const gradesEach = Number(args.grades ?? 1000)
const gradeConcurrency = Number(args['grade-connections'] ?? 4)
/** Requests the learner sends before the idle memory is read (a server in use, not one just started). */
const warmRequests = Number(args['warm-queues'] ?? 0)
const { wrkOptions, warmup } = wrkSettings({ connections: 16, ...args })
if (practice && !(parseDuration(warmup) + parseDuration(wrkOptions.duration) < 55_000)) {
  console.error('--warmup + --duration must stay under 55 s: the session cache cookie lasts 60 s.')
  process.exit(2)
}

printEnvironment({
  package: `anki21b, ${spec.notes.toLocaleString('en')} notes in ${spec.decks} decks, ${spec.reviews.toLocaleString('en')} reviews, ${spec.images} images`,
  databases: targets.join(', ') + (adminUrl ? '' : ' (no TEST_DATABASE_URL: no PostgreSQL)'),
  practice: practice ? `+${more.toLocaleString('en')} cards; wrk -t${wrkOptions.threads} -c${wrkOptions.connections} -d${wrkOptions.duration} --latency, warm-up ${warmup}` : 'not measured',
})
const hostBefore = await hostFigures()
console.log(`before: ${hostLine(hostBefore)}`)

// The tests' package writer, in TypeScript: loaded through tsx, as the tests load it.
const { writeLargePackage } = await tsImport('../tests/helpers/anki-large-package.ts', import.meta.url)
const work = await makeTempDir('lingua-bench-imports-')
// The servers run a copy of the build: this bench runs for minutes, and a `npm run build` meanwhile
// (dist/ is shared) would otherwise end it (see withServer in bench/lib/server.mjs). The copy is
// inside the project, where the server's imports find node_modules.
const cache = path.join(projectRoot, 'node_modules/.cache')
await mkdir(cache, { recursive: true })
const distCopy = await mkdtemp(path.join(cache, 'lingua-bench-imports-dist-'))
process.on('exit', () => rmSync(distCopy, { recursive: true, force: true }))
const dist = path.join(distCopy, 'dist')
await cp(path.join(projectRoot, 'dist'), dist, { recursive: true })

/** startServer on the copied build, `fn(app)`, then stop. */
async function withOwnServer(options, fn) {
  const app = await startServer({ ...options, dist })
  try {
    return await fn(app)
  } catch (error) {
    console.error(`the server's last lines:\n${app.output.slice(-15).join('\n')}`)
    throw error
  } finally {
    await app.stop()
  }
}
const packageFile = path.join(work, 'large.apkg')
let started = performance.now()
await writeLargePackage(packageFile, spec)
const packageMs = performance.now() - started
const packageBytes = (await stat(packageFile)).size
const moreFile = path.join(work, 'more.apkg')
if (practice) await writeLargePackage(moreFile, { notes: more, reviews: 0, decks: spec.decks, firstNote: spec.notes })
console.log(`package: ${(packageBytes / 1024 ** 2).toFixed(1)} MiB, written in ${(packageMs / 1000).toFixed(1)} s`)

/**
 * A process's own memory now, in bytes: its resident set (`Rss`) and its proportional share
 * (`Pss`: a page shared with other processes, as the node binary's code is between the server and
 * its children, counted once across them), from `/proc/<pid>/smaps_rollup`; and what it runs.
 */
function ownMemory(pid) {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0) * 1024
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    const name = path.basename(command.find((arg) => arg.endsWith('.js') || arg.endsWith('.ts')) ?? command[0] ?? String(pid))
    return { name, rss: kb('Rss'), pss: kb('Pss') }
  } catch {
    return { name: String(pid), rss: 0, pss: 0 }
  }
}

/** The parent of each process (field 4 of `/proc/<pid>/stat`, after the name in parentheses). */
function parents() {
  const parentOf = new Map()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // Gone meanwhile.
    }
  }
  return parentOf
}

/**
 * The memory of the process and its descendants (an Anki import's planner and writer are
 * processes of their own): RSS and PSS summed, and each process's RSS.
 */
function memoryOf(pid) {
  const parentOf = parents()
  const tree = new Set([pid])
  for (let grew = true; grew; ) {
    grew = false
    for (const [child, parent] of parentOf) {
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child)
        grew = true
      }
    }
  }
  const parts = [...tree].map(ownMemory).filter((part) => part.rss > 0)
  return { rss: parts.reduce((sum, part) => sum + part.rss, 0), pss: parts.reduce((sum, part) => sum + part.pss, 0), parts }
}

/**
 * Samples the memory every 100 ms until `stop()`, which resolves to the highest sums seen (RSS
 * and PSS) and the processes of the moment of the RSS peak.
 */
function sampleMemory(pid) {
  let peak = memoryOf(pid)
  let peakPss = peak.pss
  const sample = () => {
    const now = memoryOf(pid)
    if (now.rss > peak.rss) peak = now
    peakPss = Math.max(peakPss, now.pss)
  }
  const timer = setInterval(sample, 100)
  return { stop: () => (clearInterval(timer), sample(), { rss: peak.rss, pss: peakPss, parts: peak.parts }) }
}

const mib = (bytes) => (bytes / 1024 ** 2).toFixed(0)

/** Uploads `file` as the learner of `cookies` and polls the job to its end; the times and the job. */
async function importFile(app, cookies, file, name) {
  const bytes = await readFile(file)
  const form = new FormData()
  form.append('file', new Blob([bytes]), name)
  const began = performance.now()
  const response = await fetch(`${app.url}/api/me/imports`, {
    method: 'POST',
    headers: { Origin: app.url, Cookie: Object.entries(cookies).map(([k, v]) => `${k}=${v}`).join('; ') },
    body: form,
  })
  const text = await response.text()
  if (response.status !== 202) throw new Error(`the upload answered ${response.status}: ${text}`)
  const uploadMs = performance.now() - began
  const { id } = JSON.parse(text)
  let resets = 0
  for (;;) {
    let job
    try {
      ;({ json: job } = await appRequest(app, 'GET', `/api/me/imports/${id}`, { cookies }))
    } catch (error) {
      // A kept-alive connection the server closed as the poll went out (its event loop held by
      // the import past the keep-alive timeout): sent again, on a new connection.
      if (!(error instanceof TypeError) || ++resets > 20) throw error
      await sleep(100)
      continue
    }
    if (job.status === 'done' || job.status === 'failed') {
      if (job.status === 'failed') throw new Error(`the import failed: ${JSON.stringify(job.error)}`)
      if (resets > 0) console.log(`  (${resets} polls sent again after a connection reset)`)
      return { uploadMs, importMs: performance.now() - began - uploadMs, totalMs: performance.now() - began, job }
    }
    await sleep(100)
  }
}

let accounts = 0
/** A signed-up learner (the course's first level, English) and its cookies. */
async function learner(app) {
  accounts += 1
  const cookies = await registerAndVerify(app, { name: 'Bench Learner', email: `learner-${accounts}@example.com`, password: 'correct horse battery staple 42' })
  const { json: levels } = await appRequest(app, 'GET', '/api/language-levels?pageSize=100&sort=position', { cookies })
  const firstLevel = (levels.items ?? levels)[0]
  await appRequest(app, 'PUT', '/api/me/profile', { cookies, body: { language: 'en', currentLevelId: firstLevel?.id ?? null, targetLevelId: null } })
  await appRequest(app, 'PUT', '/api/me/practice/settings', { cookies, body: { newWordsPerDay: 20, dailyGoal: 50, timeZone: 'UTC' } })
  const { json: session } = await appRequest(app, 'GET', '/api/auth/get-session', { cookies })
  return { cookies, userId: session.user.id, levelId: firstLevel?.id ?? null }
}

/**
 * Grades each of `items` ("wordId:version") once as the learner of `cookie`, `concurrency` at a
 * time (one learner's tabs, not a crowd): a card's grade is taken once, so wrk, which sends for a
 * given time, would run out of cards. Resolves to req/s, latencies, statuses.
 */
async function gradeAll(app, cookie, items, concurrency) {
  const latencies = []
  const statuses = {}
  let next = 0
  const began = performance.now()
  const worker = async () => {
    while (next < items.length) {
      const [wordId, version] = items[next++].split(':').map(Number)
      const sent = performance.now()
      const response = await fetch(`${app.url}/api/me/practice/reviews`, {
        method: 'POST',
        headers: { Origin: app.url, Cookie: cookie, 'Content-Type': 'application/json' },
        body: JSON.stringify({ clientId: crypto.randomUUID(), wordId, grade: 3, version }),
      })
      await response.arrayBuffer()
      latencies.push(performance.now() - sent)
      statuses[response.status] = (statuses[response.status] ?? 0) + 1
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  const seconds = (performance.now() - began) / 1000
  latencies.sort((a, b) => a - b)
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]
  const non2xx = Object.entries(statuses).filter(([status]) => !status.startsWith('2')).reduce((total, [, n]) => total + n, 0)
  return { requests: items.length, requestsPerSec: items.length / seconds, percentiles: { p50: at(50), p99: at(99) }, statuses, non2xx, errors: 0, exhausted: 0 }
}

/** One learner's queue over its turns: requests and CPU in all, the mean of the turns' rates and percentiles. */
function bothTurns(results) {
  const requests = results.reduce((total, r) => total + r.requests, 0)
  const mean = (of) => results.reduce((total, r) => total + of(r), 0) / results.length
  const sum = (of) => results.reduce((total, r) => total + of(r), 0)
  const statuses = {}
  for (const r of results) for (const [status, n] of Object.entries(r.statuses)) statuses[status] = (statuses[status] ?? 0) + n
  return {
    requests,
    requestsPerSec: mean((r) => r.requestsPerSec),
    percentiles: { p50: mean((r) => r.percentiles.p50), p99: mean((r) => r.percentiles.p99) },
    cpu: { serverMs: sum((r) => r.cpu.serverMs * r.requests) / requests, postgresMs: sum((r) => r.cpu.postgresMs * r.requests) / requests },
    statuses,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    exhausted: sum((r) => r.exhausted),
    load: results.map((r) => r.load).join(' / '),
  }
}

/** Queue and grades of each learner, side by side (PostgreSQL: CPU of its backends too). */
async function practiseSideBySide(app, client, learners) {
  const withCpu = async (run) => {
    await settle(client)
    const before = await cpuSnapshot(app, client)
    const result = await run()
    const load = loadAverages()
    await settle(client)
    return { ...result, cpu: cpuPerRequest(before, await cpuSnapshot(app, client), result.requests), load }
  }
  const queue = async (who, duration) => {
    const [cookie] = await learnerCookies(app, client, [who.userId])
    // One line a wrk thread: each thread sends as this learner.
    const lines = Array.from({ length: wrkOptions.threads }, () => `${cookie}\t`)
    return withCpu(() => runLearnersWrk(`${app.url}/api/me/practice/queue`, { mode: 'queue', lines, dir: app.dataDir, ...wrkOptions, duration }))
  }
  const dueCards = async (who) =>
    (await client.query(`select word_id || ':' || version as item from practice_card where user_id = $1 and due <= now() and not suspended order by due, word_id`, [who.userId])).rows.map((row) => row.item)
  const runs = []
  // Two turns each, in the order A B B A: the one measured first after the imports (a heap full of
  // their garbage, cold code) is measured last too, and each learner's figures are of both turns.
  const turns = new Map(learners.map((who) => [who, []]))
  for (const who of [...learners, ...[...learners].reverse()]) {
    if (parseDuration(warmup) > 0) await queue(who, warmup)
    const result = await queue(who, wrkOptions.duration)
    console.log(`  queue, ${who.name}: ${result.requests} requests, ${result.requestsPerSec.toFixed(0)} req/s, statuses ${JSON.stringify(result.statuses)}; load ${result.load}`)
    turns.get(who).push(result)
  }
  for (const [who, results] of turns) runs.push({ name: who.name, mode: 'queue', ...bothTurns(results) })
  for (const who of learners) {
    const [cookie] = await learnerCookies(app, client, [who.userId])
    const items = (await dueCards(who)).slice(0, gradesEach)
    // The first tenth warms up; the rest is measured.
    const warm = Math.floor(items.length / 10)
    await gradeAll(app, cookie, items.slice(0, warm), gradeConcurrency)
    const result = await withCpu(() => gradeAll(app, cookie, items.slice(warm), gradeConcurrency))
    console.log(`  grades, ${who.name}: ${result.requests} due cards graded, statuses ${JSON.stringify(result.statuses)}; load ${result.load}`)
    runs.push({ name: who.name, mode: 'grades', ...result })
  }
  return runs
}

const results = []
for (const target of targets) {
  console.log(`\n— ${target}`)
  const database = target === 'postgres' ? await createPgDatabase(adminUrl) : undefined
  const dataDir = await makeTempDir('lingua-bench-data-')
  const port = await freePort()
  const env = { APP_URL: `http://127.0.0.1:${port}`, AUTH_RATE_LIMIT_SCALE: '10000', ACCOUNT_RATE_LIMIT_SCALE: '10000' }
  try {
    results.push(
      await withOwnServer({ dataDir, databaseUrl: database?.url, env, port }, async (app) => {
        const big = await learner(app)
        // Idle: the median of ten samples a second after sign-up (cold) and, with --warm-queues, again
        // after the learner's queues (a server in use has touched more of V8's young generation, which
        // any traffic fills, an import or not); the second is judged.
        const idleNow = async () => {
          await sleep(1000)
          const samples = []
          for (let i = 0; i < 10; i++) {
            samples.push(memoryOf(app.child.pid))
            await sleep(100)
          }
          return samples.sort((a, b) => a.rss - b.rss)[5]
        }
        const cold = await idleNow()
        for (let i = 0; i < warmRequests; i++) await appRequest(app, 'GET', '/api/me/practice/queue', { cookies: big.cookies })
        const idle = warmRequests > 0 ? await idleNow() : cold
        const idleText = warmRequests > 0 ? `${mib(cold.rss)} MiB cold, ${mib(idle.rss)} MiB after ${warmRequests} queues` : `${mib(idle.rss)} MiB`
        const sampler = sampleMemory(app.child.pid)
        const imported = await importFile(app, big.cookies, packageFile, 'large.apkg')
        const peak = sampler.stop()
        const processes = peak.parts.map((part) => `${part.name} ${mib(part.rss)}`).join(', ')
        const notesPerSec = spec.notes / (imported.importMs / 1000)
        console.log(
          `  upload ${(imported.uploadMs / 1000).toFixed(1)} s, import ${(imported.importMs / 1000).toFixed(1)} s (${notesPerSec.toFixed(0)} notes/s), ` +
            `RSS idle ${idleText}, peak ${mib(peak.rss)} MiB (+${mib(peak.rss - idle.rss)}: ${processes}), PSS +${mib(peak.pss - idle.pss)} MiB; job ${JSON.stringify({ notes: imported.job.notes, cards: imported.job.cards, reviews: imported.job.reviews, media: imported.job.media, decks: imported.job.decks.length })}`,
        )
        const figures = { target, uploadMs: imported.uploadMs, importMs: imported.importMs, notesPerSec, coldRss: cold.rss, idleRss: idle.rss, peakRss: peak.rss, idlePss: idle.pss, peakPss: peak.pss, peakProcesses: peak.parts, job: imported.job }
        if (target !== 'postgres' || !practice) return figures

        const added = await importFile(app, big.cookies, moreFile, 'more.apkg')
        console.log(`  +${more.toLocaleString('en')} cards: import ${(added.importMs / 1000).toFixed(1)} s`)
        const starter = await learner(app)
        const client = new pg.Client({ connectionString: database.url })
        await client.connect()
        try {
          // The starter learner has learnt every starter word, each due since yesterday (as if
          // answered Good three times), so that both learners grade due cards.
          const { rowCount: starterCards } = await client.query(
            `insert into practice_card (user_id, word_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review, version)
             select $1, id, now() - interval '1 day', 10, 5, 10, 10, 0, 3, 0, 2, now() - interval '11 days', 3 from word where level_id is not null`,
            [starter.userId],
          )
          console.log(`  the starter learner: ${starterCards} starter words learnt, all due`)
          const { rows: [held] } = await client.query(
            `select count(*)::int as cards, count(distinct word.deck_id)::int as decks from word join deck on deck.id = word.deck_id where deck.user_id = $1`,
            [big.userId],
          )
          console.log(`  the big learner: ${held.cards.toLocaleString('en')} cards in ${held.decks} decks`)
          const practised = await practiseSideBySide(app, client, [
            { ...big, name: `${held.cards.toLocaleString('en')} cards in ${held.decks} decks` },
            { ...starter, name: 'starter set' },
          ])
          return { ...figures, held, practised }
        } finally {
          await client.end()
        }
      }),
    )
  } finally {
    await removeDir(dataDir)
    if (args['keep-database'] && database) console.log(`  the database is kept (--keep-database): ${database.url}`)
    else await database?.drop()
  }
}
await removeDir(work)
await rm(distCopy, { recursive: true, force: true })
const hostAfter = await hostFigures()

console.log(`\nimport of ${spec.notes.toLocaleString('en')} notes, ${spec.reviews.toLocaleString('en')} reviews, ${spec.images} images (${(packageBytes / 1024 ** 2).toFixed(1)} MiB)`)
printTable(
  results.map((r) => ({
    database: r.target,
    upload: (r.uploadMs / 1000).toFixed(1),
    import: (r.importMs / 1000).toFixed(1),
    rate: r.notesPerSec.toFixed(0),
    idle: mib(r.idleRss),
    peak: mib(r.peakRss),
    above: mib(r.peakRss - r.idleRss),
    abovePss: mib(r.peakPss - r.idlePss),
  })),
  [
    { key: 'database', label: 'database', align: 'left' },
    { key: 'upload', label: 'upload s', align: 'right' },
    { key: 'import', label: 'import s (202 → done)', align: 'right' },
    { key: 'rate', label: 'notes/s', align: 'right' },
    { key: 'idle', label: 'RSS idle MiB', align: 'right' },
    { key: 'peak', label: 'RSS peak MiB', align: 'right' },
    { key: 'above', label: 'peak above idle MiB', align: 'right' },
    { key: 'abovePss', label: 'PSS peak above idle MiB', align: 'right' },
  ],
)
const practised = results.find((r) => r.practised)?.practised ?? []
if (practised.length > 0) {
  console.log(`\none learner's practice on PostgreSQL: the queue with wrk -t${wrkOptions.threads} -c${wrkOptions.connections} -d${wrkOptions.duration}; grades of due cards, each once, ${gradeConcurrency} at a time`)
  printTable(
    practised.map((r) => ({
      endpoint: r.mode === 'queue' ? 'GET /api/me/practice/queue' : 'POST /api/me/practice/reviews',
      learner: r.name,
      rps: r.requestsPerSec.toFixed(0),
      p50: r.percentiles.p50?.toFixed(2),
      p99: r.percentiles.p99?.toFixed(2),
      cpu: `${r.cpu.serverMs.toFixed(2)} + ${r.cpu.postgresMs.toFixed(2)}`,
      bad: `${r.non2xx}/${r.errors}/${r.exhausted}`,
    })),
    [
      { key: 'endpoint', label: 'endpoint', align: 'left' },
      { key: 'learner', label: 'learner', align: 'left' },
      { key: 'rps', label: 'req/s', align: 'right' },
      { key: 'p50', label: 'p50 ms', align: 'right' },
      { key: 'p99', label: 'p99 ms', align: 'right' },
      { key: 'cpu', label: 'CPU ms/req (server + PG)', align: 'right' },
      { key: 'bad', label: 'non-2xx/sock err/exhausted', align: 'right' },
    ],
  )
}
console.log(`\nhost before: ${hostLine(hostBefore)}`)
console.log(`host after:  ${hostLine(hostAfter)}`)
printBusyNote()

printSummary('imports', {
  package: { ...spec, bytes: packageBytes, writeMs: round(packageMs, 0) },
  imports: results.map((r) => ({
    database: r.target,
    uploadMs: round(r.uploadMs, 0),
    importMs: round(r.importMs, 0),
    notesPerSec: round(r.notesPerSec, 0),
    idleRssBytes: r.idleRss,
    peakRssBytes: r.peakRss,
    coldIdleRssBytes: r.coldRss,
    warmRequests,
    peakAboveIdleBytes: r.peakRss - r.idleRss,
    peakPssAboveIdleBytes: r.peakPss - r.idlePss,
    peakProcesses: r.peakProcesses,
  })),
  practice: practised.map((r) => ({
    mode: r.mode,
    learner: r.name,
    requests: r.requests,
    requestsPerSec: round(r.requestsPerSec),
    p50Ms: round(r.percentiles.p50, 2),
    p99Ms: round(r.percentiles.p99, 2),
    cpuServerMs: round(r.cpu.serverMs, 2),
    cpuPostgresMs: round(r.cpu.postgresMs, 2),
    statuses: r.statuses,
    exhausted: r.exhausted,
  })),
  wrk: practised.length > 0 ? wrkOptions : null,
  gradeConcurrency,
  hostBefore,
  hostAfter,
})
