// `npm test`: everything CI runs, in order, stopping at the first failure. PostgreSQL and Redis
// answering on their default local ports are used as CI uses them (TEST_DATABASE_URL and
// TEST_REDIS_URL, unless already set); the suites that need one that does not answer are skipped,
// and said so before and after.
import { spawn } from 'node:child_process'
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
 * The steps. The checks of the source (typecheck, lint) need nothing else; the build, then what
 * needs it (the production install, the unit tests, the API suite), run beside them, each of these
 * steps' output printed whole when it ends, the API suite's as it comes. The browser suite, the
 * longest, starts once all of them have passed, using both cores.
 */
const checks = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
]
const buildAndAfter = [
  ['build', 'npm', ['run', 'build']],
  ['production install', 'node', ['scripts/production-check.mjs']],
  ['unit', 'npx', ['vitest', 'run', '--project', 'unit']],
]
const api = ['api', 'npx', ['vitest', 'run', '--project', 'api']]
const browser = ['browser', 'npx', ['playwright', 'test']]

/** The steps still running: a failure stops them (each leads its own process group). */
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

/**
 * Runs a step; a failure ends `npm test` and the other steps. Its output is kept and printed whole
 * when it ends, or, `live`, printed as it comes (one such step at a time).
 */
function run([name, command, args], { live = false } = {}) {
  const started = Date.now()
  if (live) console.log(`\n▶ ${name}`)
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'],
      env: { ...process.env, FORCE_COLOR: '1' },
      detached: true,
    })
    running.add(child)
    const output = []
    child.stdout?.on('data', (chunk) => output.push(chunk))
    child.stderr?.on('data', (chunk) => output.push(chunk))
    child.on('close', (status) => {
      running.delete(child)
      const seconds = ((Date.now() - started) / 1000).toFixed(1)
      if (!live) {
        console.log(`\n▶ ${name}`)
        process.stdout.write(Buffer.concat(output))
      }
      if (status !== 0) failed(name, seconds, status)
      console.log(`✔ ${name} (${seconds} s)`)
      resolve()
    })
  })
}

const inTurn = async (steps) => {
  for (const step of steps) await run(step)
}
await Promise.all([
  inTurn(checks),
  (async () => {
    await inTurn(buildAndAfter)
    await run(api, { live: true })
  })(),
])
await run(browser, { live: true })
reportSkipped()
