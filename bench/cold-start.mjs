// Cold start: milliseconds from spawning `node dist/server/main.js` to the first 200 from
// GET /api/ready (polled every 5 ms on a fresh connection), for
//   - PGlite, empty DATA_DIR (first start: creates the database and runs every migration),
//   - PGlite, existing DATA_DIR (restart after a clean shutdown: nothing left to migrate),
//   - PostgreSQL, fresh database (first start), when TEST_DATABASE_URL is set,
//   - PostgreSQL, existing database (restart), when TEST_DATABASE_URL is set.
// Every database and folder made here is dropped/removed afterwards. Target: median ≤ 2 s.
// A reference row gives the bare cost of starting Node (`node -e ""` until it exits).
//
//   node bench/cold-start.mjs [--runs=5]
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/cold-start.mjs
import { spawn } from 'node:child_process'
import {
  BuildChangedError,
  buildFingerprint,
  createPgDatabase,
  makeTempDir,
  parseArgs,
  printBusyNote,
  printEnvironment,
  printSummary,
  printTable,
  removeDir,
  round,
  spawnServer,
  stats,
  verdict,
  waitReady,
} from './lib.mjs'

const args = parseArgs()
const runs = Math.max(1, Number(args.runs ?? 5))
const targetMs = 2000
const adminUrl = process.env.TEST_DATABASE_URL || undefined

/** One start: spawn, time to the first 200 from /api/ready, clean stop (SIGTERM). */
async function timeStart(options) {
  const server = await spawnServer(options)
  try {
    return await waitReady(server, { timeoutMs: 60_000, intervalMs: 5 })
  } finally {
    const exit = await server.stop()
    if (exit.code !== 0) {
      console.warn(`  note: the server exited with code ${exit.code} (signal ${exit.signal}) on SIGTERM`)
    }
  }
}

function timeBareNode() {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
    child.on('error', reject)
    child.on('exit', () => resolve(performance.now() - started))
  })
}

const scenarios = [
  {
    name: 'pglite-first',
    label: 'PGlite, empty DATA_DIR (first start)',
    async run() {
      const dataDir = await makeTempDir('lingua-bench-data-')
      try {
        return await timeStart({ dataDir })
      } finally {
        await removeDir(dataDir)
      }
    },
  },
  {
    name: 'pglite-restart',
    label: 'PGlite, existing DATA_DIR (restart)',
    async setup() {
      this.dataDir = await makeTempDir('lingua-bench-data-')
      await timeStart({ dataDir: this.dataDir }) // creates and migrates it
    },
    run() {
      return timeStart({ dataDir: this.dataDir })
    },
    async teardown() {
      if (this.dataDir) await removeDir(this.dataDir)
    },
  },
]

if (adminUrl) {
  scenarios.push(
    {
      name: 'postgres-first',
      label: 'PostgreSQL, fresh database (first start)',
      async run() {
        const database = await createPgDatabase(adminUrl)
        try {
          return await timeStart({ databaseUrl: database.url })
        } finally {
          await database.drop()
        }
      },
    },
    {
      name: 'postgres-restart',
      label: 'PostgreSQL, existing database (restart)',
      async setup() {
        this.database = await createPgDatabase(adminUrl)
        await timeStart({ databaseUrl: this.database.url })
      },
      run() {
        return timeStart({ databaseUrl: this.database.url })
      },
      async teardown() {
        await this.database?.drop()
      },
    },
  )
}

printEnvironment({ runs, postgres: adminUrl ? 'TEST_DATABASE_URL' : 'skipped (TEST_DATABASE_URL not set)' })
console.log('')

const buildAtStart = buildFingerprint()
const results = []
for (const scenario of scenarios) {
  const times = []
  try {
    await scenario.setup?.()
    for (let i = 0; i < runs; i++) times.push(await scenario.run())
  } finally {
    await scenario.teardown?.()
  }
  const s = stats(times)
  results.push({ ...scenario, times, ...s })
  console.log(`${scenario.label}: ${times.map((t) => `${Math.round(t)}`).join(', ')} ms`)
}

const bare = []
for (let i = 0; i < runs; i++) bare.push(await timeBareNode())
const bareStats = stats(bare)

console.log('')
printTable(
  [
    ...results.map((r) => ({
      scenario: r.label,
      median: Math.round(r.median),
      min: Math.round(r.min),
      max: Math.round(r.max),
      verdict: verdict(r.median <= targetMs),
    })),
    {
      scenario: 'reference: bare `node -e ""` (start to exit)',
      median: Math.round(bareStats.median),
      min: Math.round(bareStats.min),
      max: Math.round(bareStats.max),
      verdict: '',
    },
  ],
  [
    { key: 'scenario', label: `scenario (${runs} runs)`, align: 'left' },
    { key: 'median', label: 'median ms', align: 'right' },
    { key: 'min', label: 'min ms', align: 'right' },
    { key: 'max', label: 'max ms', align: 'right' },
    { key: 'verdict', label: `≤ ${targetMs} ms`, align: 'left' },
  ],
)
if (!adminUrl) console.log('\nPostgreSQL skipped: set TEST_DATABASE_URL (an admin URL; a database is created and dropped per run).')

if (buildFingerprint() !== buildAtStart) {
  console.error(`\n${new BuildChangedError().message}`)
  process.exit(3)
}

const pass = results.every((r) => r.median <= targetMs)
console.log(`\n${verdict(pass)}: every median ≤ ${targetMs} ms`)
printBusyNote()

printSummary('cold-start', {
  runs,
  targetMs,
  pass,
  scenarios: Object.fromEntries(
    results.map((r) => [
      r.name,
      { medianMs: round(r.median), minMs: round(r.min), maxMs: round(r.max), runsMs: r.times.map((t) => round(t)) },
    ]),
  ),
  bareNodeMedianMs: round(bareStats.median),
})
