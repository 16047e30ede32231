// Running wrk, reading its figures, and printing them.
import { spawn } from 'node:child_process'
import { printTable } from './report.mjs'
import { track } from './server.mjs'

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

/**
 * Runs wrk (always with --latency; with a Lua `script` when given, and `scriptArgs` after the URL,
 * which the script's init(args) reads) and resolves to its parsed output plus the raw text.
 */
export function runWrk(url, { threads = 2, connections = 64, duration = '10s', headers = {}, script, scriptArgs = [] } = {}) {
  const args = [`-t${threads}`, `-c${connections}`, `-d${duration}`, '--latency']
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`)
  if (script) args.push('-s', script)
  args.push(url)
  if (scriptArgs.length > 0) args.push('--', ...scriptArgs)
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] })
    track(child)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${stderr}${stdout}`))
      try {
        resolve({ ...parseWrk(stdout), raw: stdout, args })
      } catch (error) {
        reject(error)
      }
    })
  })
}

/**
 * Several runs of one request as one: requests and time summed (req/s over the whole), each latency
 * percentile the median of the runs' (wrk keeps no histogram to merge), the slowest answer the
 * slowest of all, errors summed.
 */
export function combineWrkRuns(runs) {
  const median = (values) => {
    const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
    const middle = Math.floor(sorted.length / 2)
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
  const sum = (pick) => runs.reduce((total, run) => total + pick(run), 0)
  const requests = sum((run) => run.requests)
  const durationSec = sum((run) => run.durationSec)
  const keys = [...new Set(runs.flatMap((run) => Object.keys(run.percentiles)))]
  return {
    requestsPerSec: requests / durationSec,
    transferPerSec: sum((run) => run.transferPerSec * run.durationSec) / durationSec,
    requests,
    durationSec,
    latency: {
      avg: sum((run) => run.latency.avg * run.requests) / requests,
      stdev: Number.NaN,
      max: Math.max(...runs.map((run) => run.latency.max)),
    },
    percentiles: Object.fromEntries(keys.map((key) => [key, median(runs.map((run) => run.percentiles[key]))])),
    socketErrors: Object.fromEntries(
      Object.keys(runs[0].socketErrors).map((kind) => [kind, sum((run) => run.socketErrors[kind])]),
    ),
    non2xx3xx: sum((run) => run.non2xx3xx),
    rounds: runs.length,
  }
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
