// Samples of the two instances and of what they share: each instance's probe line (bench/soak-probe.mjs:
// memory after a full collection, handles, event-loop delay, CPU), its open descriptors and RSS
// floor from /proc, the PostgreSQL connections of the database and the Redis keys under the prefix.
import { readFile, readdir, readlink } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { mb } from './format.mjs'
import { inFlight, instances, totalFailures, totalRequests } from './traffic.mjs'

let pgClient
let database
let redis
export const pgPeak = { connections: 0 }

/** Connects to PostgreSQL (as TEST_DATABASE_URL's user) to watch the connections of `db`; `redisNamespace` for its keys. */
export async function startSampling(adminUrl, db, redisNamespace) {
  database = db
  redis = redisNamespace
  const { default: pg } = await import('pg')
  pgClient = new pg.Client({ connectionString: adminUrl })
  await pgClient.connect()
}

export const stopSampling = () => pgClient.end().catch(() => {})

export async function pgConnections() {
  const { rows } = await pgClient.query(
    'select coalesce(state, \'?\') as state, count(*)::int as n from pg_stat_activity where datname = $1 group by 1',
    [database.name],
  )
  const byState = Object.fromEntries(rows.map((r) => [r.state, r.n]))
  const total = rows.reduce((sum, r) => sum + r.n, 0)
  pgPeak.connections = Math.max(pgPeak.connections, total)
  return { total, active: byState.active ?? 0, idle: (byState.idle ?? 0) + (byState['idle in transaction'] ?? 0) }
}

const portHex = (port) => `:${Number(port).toString(16).toUpperCase().padStart(4, '0')}`

/**
 * The process's open descriptors, and of its TCP sockets (its `socket:[inode]` descriptors found in
 * /proc/net/tcp) those accepted on its own port (client connections: the script's keep-alive
 * connections, as many as it needed at once in the last minute, since undici keeps an idle one as
 * long as the server's `Keep-Alive: timeout=65` allows) and those to PostgreSQL and to Redis.
 * Client connections follow the load, not the server's state: the trend is judged without them.
 */
async function descriptors(pid, { port, pgPort, redisPort }) {
  const dir = `/proc/${pid}/fd`
  const names = await readdir(dir).catch(() => [])
  const links = await Promise.all(names.map((name) => readlink(path.join(dir, name)).catch(() => '')))
  const inodes = new Set(links.map((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1]).filter(Boolean))
  const counts = { fds: names.length, clients: 0, pg: 0, redis: 0 }
  const table = await readFile('/proc/net/tcp', 'utf8').catch(() => '')
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/)
    if (!inodes.has(fields[9])) continue
    if (fields[1]?.endsWith(portHex(port))) counts.clients++
    else if (fields[2]?.endsWith(portHex(pgPort))) counts.pg++
    else if (fields[2]?.endsWith(portHex(redisPort))) counts.redis++
  }
  return counts
}

/**
 * The lowest resident set size of `pid` over a second (10 reads of VmRSS): a password hash holds a
 * 32 MiB scrypt buffer (128 × N × r) for the tens of milliseconds it runs, so a single read moves
 * by 32 MiB for each sign-in under way; the floor is what stays.
 */
async function rssFloor(pid) {
  let lowest = Number.POSITIVE_INFINITY
  for (let read = 0; read < 10; read++) {
    if (read > 0) await new Promise((resolve) => setTimeout(resolve, 100))
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
    const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1])
    if (Number.isFinite(kb)) lowest = Math.min(lowest, kb * 1024)
  }
  return lowest
}

/** Asks the instance's probe for a line (SIGUSR2) and waits for it; adds its descriptors and RSS floor. */
async function probe(instance) {
  const before = instance.probeLines
  instance.server.child.kill('SIGUSR2')
  for (let waited = 0; waited < 10_000; waited += 20) {
    const lines = (await readFile(instance.probeFile, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean)
    if (lines.length > before) {
      instance.probeLines = lines.length
      const ports = { port: instance.server.port, pgPort: new URL(database.url).port || 5432, redisPort: new URL(redis.url).port || 6379 }
      const [counts, floor] = await Promise.all([descriptors(instance.server.child.pid, ports), rssFloor(instance.server.child.pid)])
      return { ...JSON.parse(lines.at(-1)), ...counts, rssFloor: floor }
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`${instance.name}: the probe wrote nothing within 10 s (is bench/soak-probe.mjs loaded?)`)
}

export const samples = []

export async function takeSample(label, t) {
  const [a, b, pg, redisKeys] = await Promise.all([probe(instances[0]), probe(instances[1]), pgConnections(), redis.countKeys()])
  // CPU time used since the previous sample, in % of one core (all threads of the process).
  const previous = samples.at(-1)
  for (const [i, m] of [a, b].entries()) {
    const before = previous?.instances[i]
    m.cpuPercent = before ? ((m.cpu.user + m.cpu.system - before.cpu.user - before.cpu.system) / ((m.at - before.at) * 1000)) * 100 : Number.NaN
  }
  const sample = {
    label,
    t: Math.round(t),
    load: os.loadavg()[0],
    pg,
    redisKeys,
    instances: [a, b],
    requests: totalRequests(),
    failures: totalFailures(),
  }
  samples.push(sample)
  const describe = (name, s) =>
    `${name} rss ${mb(s.memory.rss)} MB (floor ${mb(s.rssFloor)}) heap ${mb(s.memory.heapUsed)} MB handles ${s.handles} (${s.clients} client conns) ` +
    `fds ${s.fds} pg ${s.pg} loop p99 ${s.loop.p99} ms cpu ${Math.round(s.cpuPercent)} %`
  console.log(
    `t=${String(sample.t).padStart(4)} s ${label.padEnd(6)} requests ${String(sample.requests).padStart(6)}, failures ${totalFailures()}, ` +
      `in flight ${inFlight.size} | ${describe('A', a)} | ${describe('B', b)} | pg ${pg.total} | redis keys ${redisKeys} | load ${sample.load.toFixed(2)}`,
  )
  return sample
}
