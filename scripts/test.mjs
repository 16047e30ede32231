// `npm test`: everything CI runs, in order, stopping at the first failure. PostgreSQL and Redis
// answering on their default local ports are used as CI uses them (TEST_DATABASE_URL and
// TEST_REDIS_URL, unless already set); the suites that need one that does not answer are skipped,
// and said so before and after.
import { spawn, spawnSync } from 'node:child_process'
import { localPostgresUrl, localRedisUrl, postgresProblem, redisProblem } from './lib/databases.mjs'

const services = [
  {
    name: 'PostgreSQL',
    variable: 'TEST_DATABASE_URL',
    local: localPostgresUrl,
    problem: postgresProblem,
    suites: 'the API tests on PostgreSQL, the database faults, two instances, the browser outage tests',
  },
  {
    name: 'Redis',
    variable: 'TEST_REDIS_URL',
    local: localRedisUrl,
    problem: redisProblem,
    suites: 'the Redis faults, the shared email throttle, two instances, rate limits in Redis',
  },
]

const skipped = []
for (const service of services) {
  if (process.env[service.variable]) {
    console.log(`${service.variable}=${process.env[service.variable]} (from the environment)`)
    continue
  }
  const problem = await service.problem(service.local)
  if (problem) {
    skipped.push(`no ${service.name} at ${service.local} (${problem}), so ${service.suites} (set ${service.variable} to run them)`)
  } else {
    process.env[service.variable] = service.local
    console.log(`${service.variable}=${service.local} (answers on its default local port)`)
  }
}
const reportSkipped = () => {
  for (const line of skipped) console.log(`⚠ skipped: ${line}`)
}
reportSkipped()

/**
 * The steps, in order. The checks of the source (typecheck, lint) and the build with what needs only
 * it (the production install, the unit tests) do not depend on each other: the two run side by side,
 * each step's output printed whole when it ends. The API and browser suites then run one after the
 * other, each using both cores.
 */
const sideBySide = [
  [
    ['typecheck', 'npm', ['run', 'typecheck']],
    ['lint', 'npm', ['run', 'lint']],
  ],
  [
    ['build', 'npm', ['run', 'build']],
    ['production install', 'node', ['scripts/production-check.mjs']],
    ['unit', 'npx', ['vitest', 'run', '--project', 'unit']],
  ],
]
const oneByOne = [
  ['api', 'npx', ['vitest', 'run', '--project', 'api']],
  ['browser', 'npx', ['playwright', 'test']],
]

/** The steps still running side by side: a failure stops them (each leads its own process group). */
const running = new Set()

function stopRunning() {
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      // Already gone.
    }
  }
}
// Being their own groups, they would outlive an interrupted `npm test`.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopRunning()
    process.exit(130)
  })
}

function failed(name, seconds, status) {
  stopRunning()
  console.error(`\n✖ ${name} failed after ${seconds} s`)
  reportSkipped()
  process.exit(status ?? 1)
}

/** Runs a step with its output kept, then prints it; a failure ends `npm test` and the other steps. */
function runKept([name, command, args]) {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '1' }, detached: true })
    running.add(child)
    const output = []
    child.stdout.on('data', (chunk) => output.push(chunk))
    child.stderr.on('data', (chunk) => output.push(chunk))
    child.on('close', (status) => {
      running.delete(child)
      const seconds = ((Date.now() - started) / 1000).toFixed(1)
      console.log(`\n▶ ${name}`)
      process.stdout.write(Buffer.concat(output))
      if (status !== 0) failed(name, seconds, status)
      console.log(`✔ ${name} (${seconds} s)`)
      resolve()
    })
  })
}

await Promise.all(
  sideBySide.map(async (sequence) => {
    for (const step of sequence) await runKept(step)
  }),
)

for (const [name, command, args] of oneByOne) {
  const started = Date.now()
  console.log(`\n▶ ${name}`)
  const result = spawnSync(command, args, { stdio: 'inherit' })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (result.status !== 0) failed(name, seconds, result.status)
  console.log(`✔ ${name} (${seconds} s)`)
}
reportSkipped()
