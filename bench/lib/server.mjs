// The benchmarks' servers: the built app in production mode on a fresh data folder, the build's
// identity (a rebuild while a benchmark runs makes its figures wrong), fresh databases, and the
// clean-up of all of it when the process ends, Ctrl-C included.
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  createPostgresDatabase,
  createRedisNamespace as createSharedRedisNamespace,
} from '../../scripts/lib/databases.mjs'
import {
  clientDir,
  freePort,
  projectRoot,
  serverEntry,
  spawnNodeServer,
  waitReady as waitReadyOf,
} from '../../scripts/lib/server.mjs'

export { clientDir, freePort, projectRoot, serverEntry }

/** Exits with a clear message when the build is missing. */
export function requireBuild() {
  const missing = [serverEntry, path.join(clientDir, 'index.html')].filter((f) => !existsSync(f))
  if (missing.length > 0) {
    console.error(
      `Missing ${missing.map((f) => path.relative(projectRoot, f)).join(', ')}: run \`npm run build\` first.`,
    )
    process.exit(2)
  }
}

/**
 * The build's identity: the mtimes of the server bundle and of the app shell. The server reads the
 * shell once at start; a `npm run build` while it runs deletes the assets that shell names, and the
 * pages it serves then fail to load, so every figure taken after it is wrong.
 */
export function buildFingerprint() {
  return [serverEntry, path.join(clientDir, 'index.html')]
    .map((file) => (existsSync(file) ? statSync(file).mtimeMs : 'missing'))
    .join('|')
}

export class BuildChangedError extends Error {
  constructor() {
    super(
      'dist/ was rebuilt while the benchmark ran (someone ran `npm run build`): the running server ' +
        'serves a shell whose assets are gone, so these figures are not valid. Run it again.',
    )
    this.name = 'BuildChangedError'
  }
}

/** Throws BuildChangedError when dist/ changed since the server started. */
export function assertBuildUnchanged(server) {
  if (buildFingerprint() !== server.buildAtStart) throw new BuildChangedError()
}

/** Exits with a clear message when a command (wrk, …) is not on PATH. */
export function requireCommand(command, hint) {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' })
  if (found.status !== 0) {
    console.error(`\`${command}\` is not installed${hint ? `: ${hint}` : ''}.`)
    process.exit(2)
  }
}

// What is left when the process ends, whatever the reason (error, Ctrl-C): other processes (wrk)
// are killed (the servers by scripts/lib/server.mjs), temporary folders removed, and on a signal
// the PostgreSQL databases and Redis key prefixes made are dropped (each has a `drop()`).
const running = new Set()
const tempDirs = new Set()
const droppables = new Set()
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping and cleaning up`)
    for (const child of running) child.kill('SIGKILL')
    const timeout = new Promise((resolve) => setTimeout(resolve, 5000).unref())
    void Promise.race([dropAll(), timeout]).finally(() => process.exit(130))
  })
}

/** Kills `child` if it still runs when the process ends. */
export function track(child) {
  running.add(child)
  child.on('exit', () => running.delete(child))
}

const dropAll = () => Promise.all([...droppables].map((made) => made.drop().catch(() => {})))

/** Registers a database or key prefix to drop on a signal; its `drop()` unregisters it. */
function droppable(made) {
  const drop = made.drop
  const registered = { ...made, drop: () => drop().finally(() => droppables.delete(registered)) }
  droppables.add(registered)
  return registered
}

export async function makeTempDir(prefix = 'lingua-bench-') {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix))
  tempDirs.add(dir)
  return dir
}

export async function removeDir(dir) {
  await rm(dir, { recursive: true, force: true })
  tempDirs.delete(dir)
}

/**
 * Spawns `node dist/server/main.js` (NODE_ENV=production, LOG_LEVEL=warn) on a free port, without
 * waiting for it. With neither `dataDir` nor `databaseUrl`, a fresh empty DATA_DIR is made and
 * removed on stop. `entry` runs another script instead of the app (a reference server answering
 * GET /api/ready, same environment). `nodeArgs` go to node before the entry (`--import <probe>`,
 * `--expose-gc`). `dist` runs another build (a folder laid out as dist/, e.g. a copy of an earlier
 * commit's) instead of this one's.
 */
export async function spawnServer({ dataDir, databaseUrl, env = {}, port, entry = serverEntry, nodeArgs = [], dist } = {}) {
  requireBuild()
  if (dist) {
    entry = path.join(dist, 'server/main.js')
    if (!existsSync(entry)) throw new Error(`${dist} holds no built server (server/main.js)`)
  }
  let ownDataDir
  if (!databaseUrl && !dataDir) {
    ownDataDir = await makeTempDir('lingua-bench-data-')
    dataDir = ownDataDir
  }
  const buildAtStart = buildFingerprint()
  const server = spawnNodeServer({
    port: port ?? (await freePort()),
    entry,
    nodeArgs,
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      CLIENT_DIR: dist ? path.join(dist, 'client') : clientDir,
      ...(dataDir ? { DATA_DIR: dataDir } : {}),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
  })
  return {
    ...server,
    dataDir,
    buildAtStart,
    /** SIGTERM, SIGKILL after `timeoutMs`; removes the data folder it made itself. */
    async stop(timeoutMs = 15_000) {
      const result = await server.stop({ killAfterMs: timeoutMs })
      if (ownDataDir) await removeDir(ownDataDir)
      return result
    },
  }
}

/** Resolves to the milliseconds from spawn to the first 200 of GET /api/ready (polled every 5 ms). */
export const waitReady = (server, options = {}) => waitReadyOf(server, { intervalMs: 5, ...options })

/** spawnServer + waitReady; stops the server if it never gets ready. */
export async function startServer(options = {}) {
  const server = await spawnServer(options)
  try {
    server.readyMs = await waitReady(server)
  } catch (error) {
    await server.stop()
    throw error
  }
  return server
}

/**
 * Runs `fn(server)` against a fresh server and always stops it afterwards. Exits with code 3 and a
 * clear message when dist/ was rebuilt meanwhile (the figures would be wrong, see buildFingerprint).
 */
export async function withServer(options, fn) {
  const server = await startServer(options)
  let result
  let failure
  try {
    result = await fn(server)
  } catch (error) {
    failure = error
  } finally {
    await server.stop()
  }
  if (failure instanceof BuildChangedError || buildFingerprint() !== server.buildAtStart) {
    console.error(`\n${new BuildChangedError().message}`)
    // The caller's own clean-up never runs after exit: drop the databases (and Redis keys) it made here.
    await dropAll()
    process.exit(3)
  }
  if (failure) throw failure
  return result
}

/** A fresh PostgreSQL database on the server of `adminUrl` (TEST_DATABASE_URL), with a `drop()`. */
export const createPgDatabase = async (adminUrl) => droppable(await createPostgresDatabase(adminUrl, 'lingua_bench'))

/** A Redis key prefix of one run (REDIS_KEY_PREFIX) on `redisUrl`, its keys deleted by `drop()`. */
export const createRedisNamespace = async (redisUrl) =>
  droppable(await createSharedRedisNamespace(redisUrl, 'lingua-bench'))
