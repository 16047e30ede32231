// `npm test`: everything CI runs, in order, stopping at the first failure.
import { spawnSync } from 'node:child_process'

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
    process.exit(result.status ?? 1)
  }
  console.log(`✔ ${name} (${seconds} s)`)
}
