// Step of `npm test`: the deployment docs/operations.md describes, done for real. A copy holding only
// what is shipped (dist/, drizzle/, package.json, package-lock.json) gets the production
// dependencies (`npm ci --omit=dev`); in it the server must start and answer, and the
// administrator CLI must work with `node`, with no devDependency anywhere.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { freePort, projectRoot as root, spawnNodeServer, waitReady } from './lib/server.mjs'

const shipped = ['dist', 'drizzle', 'package.json', 'package-lock.json']

function fail(message) {
  console.error(`✖ production install: ${message}`)
  process.exitCode = 1
  throw new Error(message)
}

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options })
  return { code: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` }
}

if (!existsSync(path.join(root, 'dist/server/main.js'))) {
  console.error('dist/ is missing: run `npm run build` first')
  process.exit(2)
}

const copy = await mkdtemp(path.join(os.tmpdir(), 'lingua-production-'))
let server
try {
  for (const entry of shipped) await cp(path.join(root, entry), path.join(copy, entry), { recursive: true })
  console.log(`copy of ${shipped.join(', ')} in ${copy}; npm ci --omit=dev…`)
  const install = run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: copy })
  if (install.code !== 0) fail(`npm ci --omit=dev failed:\n${install.output}`)
  // npm still installs what the lockfile marks `devOptional`: devDependencies that a dependency
  // names as optional peers (better-auth names drizzle-kit and vitest, which bring tsx and vite).
  // Taken away here, so that nothing run below can lean on one.
  const { packages } = JSON.parse(await readFile(path.join(copy, 'package-lock.json'), 'utf8'))
  const present = Object.entries(packages)
    .filter(([where, entry]) => where && (entry.dev || entry.devOptional) && existsSync(path.join(copy, where)))
    .map(([where]) => where)
  for (const where of present) await rm(path.join(copy, where), { recursive: true, force: true })
  console.log(`${present.length} development packages npm installed anyway, removed (${present.filter((p) => /node_modules\/(tsx|vite|vitest|drizzle-kit)$/.test(p)).join(', ')}…)`)

  const port = await freePort()
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(copy, 'data'),
    LOG_LEVEL: 'warn',
  }
  const cli = (...args) => run(process.execPath, ['dist/server/cli.js', ...args], { cwd: copy, env })

  server = spawnNodeServer({ port, env, cwd: copy, entry: 'dist/server/main.js' })
  await waitReady(server, { timeoutMs: 60_000, intervalMs: 200 }).catch((error) => fail(error.message))
  const page = await fetch(`http://127.0.0.1:${port}/`)
  if (page.status !== 200 || !(await page.text()).includes('<div id="root"')) fail(`GET / answered ${page.status}, not the app`)
  console.log('server ready, / served')

  const whileRunning = cli('admin', 'list')
  if (whileRunning.code !== 1 || !whileRunning.output.includes('is in use by process')) {
    fail(`admin list while the server runs should refuse (exit 1):\n${whileRunning.output}`)
  }
  if ((await server.stop()).code !== 0) fail(`the server did not stop cleanly:\n${server.output.join('\n')}`)
  server = undefined

  const listed = cli('admin', 'list')
  if (listed.code !== 0 || !listed.output.includes('No administrators yet.')) fail(`admin list failed:\n${listed.output}`)
  console.log('admin list: refused while the server ran, then answered')

  // The server and the CLI refuse a Node older than engines.node with one line, where a Node
  // older than 24 is installed beside the one running this (the system's Node 20 on these machines).
  const older = run('which', ['-a', 'node']).output.split('\n').filter(Boolean)
    .find((candidate) => Number(run(candidate, ['-p', 'process.versions.node.split(".")[0]']).output) < 24)
  if (older) {
    for (const entry of ['dist/server/main.js', 'dist/server/cli.js']) {
      const refused = run(older, [entry, 'admin', 'list'], { cwd: copy, env })
      const lines = refused.output.trim().split('\n')
      if (refused.code !== 1 || lines.length !== 1 || !lines[0].startsWith('Lingua needs Node 24')) {
        fail(`${older} ${entry} should refuse in one line (exit 1):\n${refused.output}`)
      }
    }
    console.log(`${older} (older than 24): server and CLI refused in one line`)
  }
  console.log(`server and CLI ran on Node ${process.versions.node}`)
  console.log('✔ production install: server and CLI run from dist/ with production dependencies only')
} finally {
  await server?.stop({ signal: 'SIGKILL' })
  await rm(copy, { recursive: true, force: true })
}
