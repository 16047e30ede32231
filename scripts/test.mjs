// `npm test`: everything CI runs, in order, stopping at the first failure. PostgreSQL and Redis
// answering on their default local ports are used as CI uses them (TEST_DATABASE_URL and
// TEST_REDIS_URL, unless already set); the suites that need one that does not answer are skipped,
// and said so before and after.
import { spawnSync } from 'node:child_process'
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

const steps = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  ['build', 'npm', ['run', 'build']],
  ['production install', 'node', ['scripts/production-check.mjs']],
  ['unit', 'npx', ['vitest', 'run', '--project', 'unit']],
  ['api', 'npx', ['vitest', 'run', '--project', 'api']],
  ['browser', 'npx', ['playwright', 'test']],
]

for (const [name, command, args] of steps) {
  const started = Date.now()
  console.log(`\n▶ ${name}`)
  const result = spawnSync(command, args, { stdio: 'inherit' })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed after ${seconds} s`)
    reportSkipped()
    process.exit(result.status ?? 1)
  }
  console.log(`✔ ${name} (${seconds} s)`)
}
reportSkipped()
