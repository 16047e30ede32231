// How busy and how fast the machine is, for figures taken on a shared one: the load average (as
// `uptime` prints it) and the time of a bare `node -e ""` (hyperfine when installed, else ten runs
// timed here), a yardstick of the machine's speed at that moment.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { median } from './report.mjs'

/** The 1, 5 and 15-minute load averages, as `uptime` prints them. */
export const loadAverages = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')

/** Milliseconds of `node -e ""` (median and mean of 10 runs after 2 warm-up runs) and how it was timed. */
async function nodeStartMs() {
  const hyperfine = spawnSync('sh', ['-c', 'command -v hyperfine'], { encoding: 'utf8' }).status === 0
  if (hyperfine) {
    const out = path.join(os.tmpdir(), `lingua-bench-hyperfine-${process.pid}.json`)
    const run = spawnSync('hyperfine', ['-N', '--warmup', '2', '--runs', '10', '--export-json', out, `${process.execPath} -e ""`], {
      encoding: 'utf8',
    })
    if (run.status === 0) {
      const [result] = JSON.parse(await readFile(out, 'utf8')).results
      await rm(out, { force: true })
      return { medianMs: result.median * 1000, meanMs: result.mean * 1000, how: 'hyperfine -N, 10 runs' }
    }
  }
  const times = []
  for (let run = 0; run < 12; run++) {
    const started = performance.now()
    spawnSync(process.execPath, ['-e', ''])
    if (run >= 2) times.push(performance.now() - started)
  }
  return { medianMs: median(times), meanMs: times.reduce((a, b) => a + b, 0) / times.length, how: '10 runs timed here' }
}

/** The host line printed before and after a bench: load averages and `node -e ""`. */
export async function hostFigures() {
  const load = loadAverages()
  const node = await nodeStartMs()
  return { load, nodeMedianMs: node.medianMs, nodeMeanMs: node.meanMs, how: node.how }
}

export const hostLine = (figures) =>
  `load average ${figures.load}; node -e "" ${figures.nodeMedianMs.toFixed(0)} ms median (${figures.nodeMeanMs.toFixed(0)} mean, ${figures.how})`

/** CPU seconds (user + system, all threads) a process has used: /proc/<pid>/stat, in ticks of 1/100 s. */
function cpuSecondsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/**
 * The CPU time the server and the PostgreSQL backends of `client`'s database (other than
 * `client`'s own) have used so far. Taken before and after a run, and divided by its requests, it
 * is each request's cost in CPU, which the neighbours' load changes far less than its latency.
 */
export async function cpuSnapshot(server, client) {
  const { rows } = await client.query(
    `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
  )
  const backends = Object.fromEntries(rows.map((row) => [row.pid, cpuSecondsOf(row.pid)]))
  return { server: cpuSecondsOf(server.child.pid), backends }
}

/** Milliseconds of CPU per request of the server and of PostgreSQL between two snapshots. */
export function cpuPerRequest(before, after, requests) {
  const postgres = Object.entries(after.backends).reduce((total, [pid, seconds]) => total + seconds - (before.backends[pid] ?? 0), 0)
  return { serverMs: ((after.server - before.server) * 1000) / requests, postgresMs: (postgres * 1000) / requests }
}
