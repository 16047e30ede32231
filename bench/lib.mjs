// Shared helpers of the benchmark scripts in bench/: build check, free port, starting and stopping
// `node dist/server/main.js` on a fresh data folder, readiness, wrk and table/summary printing.
// Node ESM, no build step: run the scripts with `node bench/<name>.mjs` after `npm run build`.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, rmSync, statSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'

export const projectRoot = path.resolve(import.meta.dirname, '..')
export const serverEntry = path.join(projectRoot, 'dist/server/main.js')
export const clientDir = path.join(projectRoot, 'dist/client')

export { chromeFlags, chromePath } from '../scripts/chromium.mjs'

/** A normal desktop Chrome user agent (not "HeadlessChrome", which bot detectors flag). */
export function desktopUserAgent(chromeVersion = '130.0.0.0') {
  const major = String(chromeVersion).split('.')[0]
  return `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`
}

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

/** A TCP port nothing listens on right now (on 127.0.0.1). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.unref()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

// What is left when the process ends, whatever the reason (error, Ctrl-C): servers and wrk still running
// are killed, temporary folders removed, and on a signal the PostgreSQL databases and Redis key
// prefixes made are dropped (each has a `drop()`).
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
    const drops = [...droppables].map((made) => made.drop().catch(() => {}))
    const timeout = new Promise((resolve) => setTimeout(resolve, 5000).unref())
    void Promise.race([Promise.all(drops), timeout]).finally(() => process.exit(130))
  })
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

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Spawns `node dist/server/main.js` (NODE_ENV=production, LOG_LEVEL=warn, HOST=127.0.0.1) on a free
 * port, without waiting for it. With neither `dataDir` nor `databaseUrl`, a fresh empty DATA_DIR is
 * made and removed on stop. `spawnedAt` is performance.now() right before spawn(). `entry` runs
 * another script instead of the app (a reference server answering GET /api/ready, same environment).
 * `nodeArgs` go to node before the entry (`--import <probe>`, `--expose-gc`).
 */
export async function spawnServer({ dataDir, databaseUrl, env = {}, port, entry = serverEntry, nodeArgs = [] } = {}) {
  requireBuild()
  let ownDataDir
  if (!databaseUrl && !dataDir) {
    ownDataDir = await makeTempDir('lingua-bench-data-')
    dataDir = ownDataDir
  }
  port ??= await freePort()
  const childEnv = {
    PATH: process.env.PATH ?? '',
    TMPDIR: os.tmpdir(),
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    CLIENT_DIR: clientDir,
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  }
  const buildAtStart = buildFingerprint()
  const spawnedAt = performance.now()
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: projectRoot,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)

  const output = []
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => output.push(line))
  }
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      running.delete(child)
      resolve({ code, signal })
    })
  })

  let stopping
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    child,
    output,
    exited,
    spawnedAt,
    buildAtStart,
    /** SIGTERM, SIGKILL after `timeoutMs`; removes the data folder it made itself. */
    stop(timeoutMs = 15_000) {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
        const kill = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
        const result = await exited
        clearTimeout(kill)
        if (ownDataDir) await removeDir(ownDataDir)
        return result
      })()
      return stopping
    },
  }
}

/** One GET on a fresh connection; resolves to the status code (0 when nothing answered). */
function getStatus(url, timeoutMs) {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
      response.on('error', () => resolve(0))
    })
    request.on('timeout', () => request.destroy())
    request.on('error', () => resolve(0))
  })
}

/**
 * Polls GET /api/ready every `intervalMs` until it answers 200; resolves to the milliseconds since
 * the server was spawned. Throws (with the server's output) if it exits or times out first.
 */
export async function waitReady(server, { timeoutMs = 60_000, intervalMs = 5 } = {}) {
  let exit
  void server.exited.then((result) => (exit = result))
  const deadline = performance.now() + timeoutMs
  let lastStatus = 0
  while (performance.now() < deadline) {
    if (exit) {
      throw new Error(
        `The server exited (code ${exit.code}, signal ${exit.signal}) before it was ready:\n${server.output.join('\n')}`,
      )
    }
    lastStatus = await getStatus(`${server.url}/api/ready`, 3000)
    if (lastStatus === 200) return performance.now() - server.spawnedAt
    await sleep(intervalMs)
  }
  throw new Error(
    `The server was not ready within ${timeoutMs} ms (last status ${lastStatus}):\n${server.output.join('\n')}`,
  )
}

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
    await Promise.all([...droppables].map((made) => made.drop().catch(() => {})))
    process.exit(3)
  }
  if (failure) throw failure
  return result
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL (TEST_DATABASE_URL): a fresh database per use, dropped afterwards.

/** Creates an empty database on the server of `adminUrl`; returns its URL and a `drop()`. */
export async function createPgDatabase(adminUrl) {
  const { default: pg } = await import('pg')
  const name = `lingua_bench_${randomBytes(6).toString('hex')}`
  const admin = async (text) => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    try {
      await client.query(text)
    } finally {
      await client.end()
    }
  }
  await admin(`CREATE DATABASE "${name}"`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  let dropped
  const database = {
    name,
    url: url.toString(),
    drop: () =>
      (dropped ??= admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => droppables.delete(database))),
  }
  droppables.add(database)
  return database
}

// ---------------------------------------------------------------------------------------------
// Redis (TEST_REDIS_URL): a key prefix of one run (REDIS_KEY_PREFIX), its keys deleted afterwards.

/**
 * A fresh `REDIS_KEY_PREFIX` on the Redis of `redisUrl`, so that a run neither sees nor disturbs
 * the keys of others; `countKeys()` counts its keys, `drop()` deletes them and disconnects.
 */
export async function createRedisNamespace(redisUrl) {
  const { Redis } = await import('ioredis')
  const prefix = `lingua-bench-${randomBytes(6).toString('hex')}:`
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 })
  await client.connect()
  const keys = async function* () {
    let cursor = '0'
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
      cursor = next
      yield batch
    } while (cursor !== '0')
  }
  let dropped
  const namespace = {
    url: redisUrl,
    prefix,
    client,
    async countKeys() {
      let total = 0
      for await (const batch of keys()) total += batch.length
      return total
    },
    drop: () =>
      (dropped ??= (async () => {
        for await (const batch of keys()) if (batch.length > 0) await client.del(...batch)
      })().finally(() => {
        client.disconnect()
        droppables.delete(namespace)
      })),
  }
  droppables.add(namespace)
  return namespace
}

// ---------------------------------------------------------------------------------------------
// A signed-in account (bench/auth.mjs, bench/api.mjs). The server must run with APP_URL set to its
// own address (in production better-auth refuses a POST from any other Origin) and with a DATA_DIR,
// whose outbox holds the verification email.

export const tokenCookie = 'lingua.session_token'
export const cacheCookie = 'lingua.session_data'

export const cookieString = (cookies) =>
  Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ')

/** The cookies a response sets, by name (`''` for one it deletes). */
export const responseCookies = (response) =>
  Object.fromEntries(response.headers.getSetCookie().map((h) => h.split(';')[0].split(/=(.*)/s, 2)))

/**
 * A request as the app's own page would send it; resolves to the JSON answer and the cookies it set.
 * Throws unless it answers 200.
 */
export async function appRequest(server, method, pathname, { body, cookies = {} } = {}) {
  const cookie = cookieString(cookies)
  const response = await fetch(server.url + pathname, {
    method,
    headers: {
      Origin: server.url,
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
    redirect: 'manual',
  })
  const text = await response.text()
  const setCookies = responseCookies(response)
  if (response.status !== 200) throw new Error(`${method} ${pathname} answered ${response.status}: ${text}`)
  return { json: text ? JSON.parse(text) : null, setCookies }
}

/** The token of the newest verification email to `email` (the mailer writes the outbox as JSON files). */
export async function verificationToken(dataDir, email) {
  const dir = path.join(dataDir, 'outbox')
  for (let attempt = 0; attempt < 100; attempt++) {
    const names = (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.json') && !n.startsWith('.'))
    const mails = await Promise.all(names.sort().map(async (n) => JSON.parse(await readFile(path.join(dir, n), 'utf8'))))
    const mail = mails.filter((m) => m.kind === 'verify-email' && m.to === email).at(-1)
    if (mail) return new URL(mail.link).searchParams.get('token')
    await sleep(50)
  }
  throw new Error(`no verification email to ${email} in ${dir}`)
}

/**
 * Sign-up (`{ name, email, password }`), then the emailed link, which signs in. Resolves to the
 * session cookies (the token and the 60 s cache cookie).
 */
export async function registerAndVerify(server, account) {
  await appRequest(server, 'POST', '/api/auth/sign-up/email', { body: account })
  const token = await verificationToken(server.dataDir, account.email)
  const { setCookies } = await appRequest(server, 'GET', `/api/auth/verify-email?token=${encodeURIComponent(token)}`)
  if (!setCookies[tokenCookie]) throw new Error('the verification link set no session cookie')
  return setCookies
}

/**
 * Checks that `cookies` give `email`'s session (a missing session is a 200 `null`, which wrk would
 * count as a success). `cached`: better-auth answered from the cache cookie (so set no new one).
 * Resolves to the cookies the answer set: with the token only, a fresh cache cookie.
 */
export async function checkSession(server, cookies, email, cached) {
  const { json, setCookies } = await appRequest(server, 'GET', '/api/auth/get-session', { cookies })
  if (json?.user?.email !== email) throw new Error(`get-session with ${Object.keys(cookies)} gave no session`)
  if (cached === Boolean(setCookies[cacheCookie])) {
    throw new Error(`get-session ${cached ? 'did not answer from' : 'answered from'} the cache cookie`)
  }
  return setCookies
}

// ---------------------------------------------------------------------------------------------
// wrk

/** A wrk duration/latency figure ("1.23ms", "450.00us", "1.02s", "2m") in milliseconds. */
export function parseDuration(text) {
  const match = /^([\d.]+)(us|ms|s|m|h)?$/.exec(text.trim())
  if (!match) return Number.NaN
  const value = Number(match[1])
  const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? 's']
  return value * factor
}

/** A wrk byte figure ("12.34MB", "512B") in bytes. */
function parseBytes(text) {
  const match = /^([\d.]+)([KMGT]?B)$/.exec(text.trim())
  if (!match) return Number.NaN
  return Number(match[1]) * { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 }[match[2]]
}

/**
 * Parses the text wrk prints with `--latency`: requests/s, latency percentiles (ms), request count,
 * socket errors and non-2xx/3xx responses.
 */
export function parseWrk(output) {
  const result = {
    requestsPerSec: Number.NaN,
    transferPerSec: Number.NaN,
    requests: Number.NaN,
    durationSec: Number.NaN,
    latency: { avg: Number.NaN, stdev: Number.NaN, max: Number.NaN },
    percentiles: {},
    socketErrors: { connect: 0, read: 0, write: 0, timeout: 0 },
    non2xx3xx: 0,
  }
  for (const raw of output.split('\n')) {
    const line = raw.trim()
    let m
    if ((m = /^Latency\s+(\S+)\s+(\S+)\s+(\S+)/.exec(line))) {
      result.latency = { avg: parseDuration(m[1]), stdev: parseDuration(m[2]), max: parseDuration(m[3]) }
    } else if ((m = /^(\d+(?:\.\d+)?)%\s+(\S+)$/.exec(line))) {
      result.percentiles[`p${m[1]}`] = parseDuration(m[2])
    } else if ((m = /^(\d+) requests in ([\d.]+\w*), (\S+) read/.exec(line))) {
      result.requests = Number(m[1])
      result.durationSec = parseDuration(m[2]) / 1000
    } else if ((m = /^Requests\/sec:\s+([\d.]+)/.exec(line))) {
      result.requestsPerSec = Number(m[1])
    } else if ((m = /^Transfer\/sec:\s+(\S+)/.exec(line))) {
      result.transferPerSec = parseBytes(m[1])
    } else if ((m = /^Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(line))) {
      result.socketErrors = { connect: +m[1], read: +m[2], write: +m[3], timeout: +m[4] }
    } else if ((m = /^Non-2xx or 3xx responses: (\d+)/.exec(line))) {
      result.non2xx3xx = Number(m[1])
    }
  }
  if (Number.isNaN(result.requestsPerSec)) {
    throw new Error(`Could not read wrk's output:\n${output}`)
  }
  return result
}

/** Runs wrk (always with --latency) and resolves to its parsed output plus the raw text. */
export function runWrk(url, { threads = 2, connections = 64, duration = '10s', headers = {} } = {}) {
  const args = [`-t${threads}`, `-c${connections}`, `-d${duration}`, '--latency']
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`)
  args.push(url)
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] })
    running.add(child)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('exit', (code) => {
      running.delete(child)
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${stderr}${stdout}`))
      try {
        resolve({ ...parseWrk(stdout), raw: stdout, args })
      } catch (error) {
        reject(error)
      }
    })
  })
}

// ---------------------------------------------------------------------------------------------
// Figures and printing

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** The value below which `p` % of `values` lie (nearest rank); NaN for none. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? Number.NaN : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]
}

export function stats(values) {
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    runs: values.length,
  }
}

export const round = (value, digits = 1) =>
  Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : null

/** Kilobytes of 1000 bytes, as Vite's build output and the bundle target count them. */
export const kb = (bytes, digits = 1) => (bytes / 1000).toFixed(digits)

/**
 * Prints rows (objects) as an aligned text table. `columns`: [{ key, label, align: 'left'|'right' }];
 * numbers are right-aligned by default.
 */
export function printTable(rows, columns) {
  const cells = rows.map((row) => columns.map((c) => (row[c.key] === undefined || row[c.key] === null ? '–' : String(row[c.key]))))
  const widths = columns.map((c, i) => Math.max(c.label.length, ...cells.map((r) => r[i].length)))
  const alignOf = (c, i) => c.align ?? (rows.every((row) => typeof row[c.key] !== 'string') ? 'right' : i === 0 ? 'left' : 'right')
  const pad = (text, i) => (alignOf(columns[i], i) === 'left' ? text.padEnd(widths[i]) : text.padStart(widths[i]))
  const line = (values) => values.map(pad).join('  ').trimEnd()
  console.log(line(columns.map((c) => c.label)))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of cells) console.log(line(row))
}

/**
 * The columns of a wrk run, by key, for `printWrkRuns`; `extra` adds a script's own columns
 * (ratio, body size) and their values.
 */
const wrkColumns = {
  rps: { label: 'req/s', value: (r) => r.requestsPerSec.toFixed(0) },
  p50: { label: 'p50 ms', value: (r) => r.percentiles.p50?.toFixed(2) },
  p90: { label: 'p90 ms', value: (r) => r.percentiles.p90?.toFixed(2) },
  p99: { label: 'p99 ms', value: (r) => r.percentiles.p99?.toFixed(2) },
  max: { label: 'max ms', value: (r) => r.latency.max.toFixed(2) },
  requests: { label: 'requests', value: (r) => r.requests },
  bad: { label: 'non-2xx/sock err', value: (r) => `${r.non2xx3xx}/${r.errors}` },
}

/**
 * Prints wrk runs as a table (`keys`: the wrk columns and `extra` ones, in order) and warns when a
 * run had non-2xx answers or socket errors. A run carries `name` and `errors` (socket errors summed).
 */
export function printWrkRuns(runs, keys, extra = {}) {
  const columns = { ...wrkColumns, ...extra }
  printTable(
    runs.map((run) => Object.fromEntries([['endpoint', run.name], ...keys.map((key) => [key, columns[key].value(run)])])),
    [
      { key: 'endpoint', label: 'endpoint', align: 'left' },
      ...keys.map((key) => ({ key, label: columns[key].label, align: 'right' })),
    ],
  )
  const failures = runs.filter((r) => r.non2xx3xx > 0 || r.errors > 0)
  if (failures.length > 0) {
    console.log(`\nwarning: non-2xx responses or socket errors on ${failures.map((r) => r.name).join(', ')}`)
  }
}

export const verdict = (ok) => (ok ? 'PASS' : 'MISS')

/** The last line of every script: `BENCH_SUMMARY {"bench":"…",…}` on one line, for machines. */
export function printSummary(bench, data) {
  console.log(`BENCH_SUMMARY ${JSON.stringify({ bench, at: new Date().toISOString(), ...data })}`)
}

/** Node, CPU count and load, printed at the top so figures can be compared across machines. */
export function printEnvironment(extra = {}) {
  const cpus = os.cpus()
  const info = {
    node: process.version,
    cpus: `${cpus.length} × ${cpus[0]?.model?.trim() ?? '?'}`,
    loadavg: os.loadavg().map((v) => v.toFixed(2)).join(' '),
    ...extra,
  }
  console.log(Object.entries(info).map(([k, v]) => `${k}: ${v}`).join(' | '))
}

/** `--name=value` / `--flag` command-line options. */
export function parseArgs(argv = process.argv.slice(2)) {
  const options = {}
  for (const arg of argv) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(arg)
    if (m) options[m[1]] = m[2] ?? true
  }
  return options
}

/** The wrk settings every load script takes: --threads=2 --connections=64 --duration=10s --warmup=2s. */
export function wrkSettings(args) {
  return {
    wrkOptions: {
      threads: Number(args.threads ?? 2),
      connections: Number(args.connections ?? 64),
      duration: String(args.duration ?? '10s'),
    },
    warmup: String(args.warmup ?? '2s'),
  }
}
