// The report: requests and latency per kind, every sample, the trend verdict, the targets, the
// servers' warnings, and the BENCH_SUMMARY line.
import os from 'node:os'
import { median, percentile, printSummary, printTable, printTargets, round } from '../lib.mjs'
import { driver } from './drive.mjs'
import { fmt, mb } from './format.mjs'
import { durationS, learnerCount, rate, sampleS, warmupS } from './options.mjs'
import { pgPeak, samples } from './samples.mjs'
import { learnerDay } from './learner.mjs'
import { increment, instances, kinds, sumMap, totalFailures, totalRequests } from './traffic.mjs'
import { printTrend } from './trend.mjs'

const describeMap = (map) => [...map].map(([key, n]) => `${n}× ${key}`).join(', ')

/** Requests, answers and latency per kind, per instance, and the driver's lag; returns the rows (the last: all). */
function printRequests() {
  console.log(`\nRequests (whole run, ${fmt(driver.trafficS)} s) and latency (after the ${warmupS} s warm-up, from send to the last byte):\n`)
  const kindRows = Object.values(kinds).map((kind) => ({
    kind: kind.label,
    requests: kind.requests,
    rps: fmt(kind.requests / driver.trafficS),
    expected: kind.expected,
    other4xx: sumMap(kind.otherClientErrors),
    failures: sumMap(kind.failures),
    p50: fmt(percentile(kind.latencies, 50)),
    p99: fmt(percentile(kind.latencies, 99)),
    max: fmt(Math.max(...kind.latencies)),
  }))
  const all = Object.values(kinds).flatMap((kind) => kind.latencies)
  kindRows.push({
    kind: 'all',
    requests: totalRequests(),
    rps: fmt(totalRequests() / driver.trafficS),
    expected: Object.values(kinds).reduce((sum, k) => sum + k.expected, 0),
    other4xx: Object.values(kinds).reduce((sum, k) => sum + sumMap(k.otherClientErrors), 0),
    failures: totalFailures(),
    p50: fmt(percentile(all, 50)),
    p99: fmt(percentile(all, 99)),
    max: fmt(Math.max(...all)),
  })
  printTable(kindRows, [
    { key: 'kind', label: 'kind', align: 'left' },
    { key: 'requests', label: 'requests', align: 'right' },
    { key: 'rps', label: 'req/s', align: 'right' },
    { key: 'expected', label: 'as expected', align: 'right' },
    { key: 'other4xx', label: 'other 4xx', align: 'right' },
    { key: 'failures', label: 'failures', align: 'right' },
    { key: 'p50', label: 'p50 ms', align: 'right' },
    { key: 'p99', label: 'p99 ms', align: 'right' },
    { key: 'max', label: 'max ms', align: 'right' },
  ])
  for (const kind of Object.values(kinds)) {
    if (kind.otherClientErrors.size > 0) console.log(`  other 4xx, ${kind.label}: ${describeMap(kind.otherClientErrors)}`)
    if (kind.failures.size > 0) {
      console.log(`  failures, ${kind.label}: ${describeMap(kind.failures)} (${kind.warmupFailures} in the warm-up)`)
    }
  }
  // What the learner kinds sent instead when what they wanted was not there (no card, no grade to undo).
  const instead = [...learnerDay.instead].map(([what, n]) => `${n}× ${what}`)
  console.log(
    `  the learner's day: ${learnerDay.nothingToGrade} grades found nothing to grade (the queue empty)` +
      (instead.length > 0 ? `; instead: ${instead.join(', ')}` : ''),
  )
  console.log(
    `  per instance: ${instances.map((i) => `${i.name} ${i.requests} requests, ${i.failures} failures, p50 ${fmt(percentile(i.latencies, 50))} ms, p99 ${fmt(percentile(i.latencies, 99))} ms`).join('; ')}`,
  )
  console.log(
    `  driver: dispatch lag p99 ${fmt(percentile(driver.dispatchLag, 99))} ms (max ${fmt(Math.max(...driver.dispatchLag))}), peak ${driver.peakInFlight} requests in flight`,
  )
  return kindRows
}

/** Every sample of each instance, with what the two share (PostgreSQL, Redis, load) on the first's row. */
function printSamples() {
  console.log(
    '\nSamples (memory after a full collection; RSS floor: the lowest of 10 reads over 1 s; loop delay, CPU (% of one core) and failures since the previous sample):\n',
  )
  const sampleRows = samples.flatMap((s, n) =>
    s.instances.map((m, i) => ({
      t: s.t,
      label: s.label,
      instance: instances[i].name,
      rss: fmt(m.memory.rss / 1024 ** 2),
      rssFloor: fmt(m.rssFloor / 1024 ** 2),
      heap: fmt(m.memory.heapUsed / 1024 ** 2),
      handles: m.handles,
      fds: m.fds,
      clients: m.clients,
      pgOwn: m.pg,
      timers: m.resources.Timeout ?? 0,
      loopP99: fmt(m.loop.p99),
      loopMax: fmt(m.loop.max),
      cpu: fmt(m.cpuPercent, 0),
      pg: i === 0 ? `${s.pg.total} (${s.pg.active} active)` : '',
      redis: i === 0 ? s.redisKeys : '',
      load: i === 0 ? s.load.toFixed(2) : '',
      failed: i === 0 ? s.failures - (samples[n - 1]?.failures ?? 0) : '',
    })),
  )
  printTable(sampleRows, [
    { key: 't', label: 't s', align: 'right' },
    { key: 'label', label: '', align: 'left' },
    { key: 'instance', label: 'inst', align: 'left' },
    { key: 'rss', label: 'RSS MB', align: 'right' },
    { key: 'rssFloor', label: 'RSS floor', align: 'right' },
    { key: 'heap', label: 'heap MB', align: 'right' },
    { key: 'handles', label: 'handles', align: 'right' },
    { key: 'fds', label: 'fds', align: 'right' },
    { key: 'clients', label: 'client conns', align: 'right' },
    { key: 'pgOwn', label: 'its PG conns', align: 'right' },
    { key: 'timers', label: 'timers', align: 'right' },
    { key: 'loopP99', label: 'loop p99 ms', align: 'right' },
    { key: 'loopMax', label: 'loop max ms', align: 'right' },
    { key: 'cpu', label: 'CPU %', align: 'right' },
    { key: 'pg', label: 'PG conns of the db', align: 'right' },
    { key: 'redis', label: 'Redis keys', align: 'right' },
    { key: 'load', label: 'load 1m', align: 'right' },
    { key: 'failed', label: 'failures', align: 'right' },
  ])
}

/** The servers' own warnings and errors (LOG_LEVEL=warn), grouped: anything here is worth a look. */
function printServerLogs() {
  for (const instance of instances) {
    const lines = instance.server.output.filter((line) => line.trim())
    if (lines.length === 0) continue
    const messages = new Map()
    for (const line of lines) {
      let message = line.slice(0, 160)
      try {
        const parsed = JSON.parse(line)
        message = `${parsed.level >= 50 ? 'error' : 'warn'}: ${parsed.msg}${parsed.err?.message ? ` (${parsed.err.message.slice(0, 100)})` : ''}`
      } catch {
        // stderr and better-auth's own lines are not JSON.
      }
      increment(messages, message)
    }
    console.log(`\n${instance.name} logged ${lines.length} lines at warn or above:`)
    for (const [message, n] of [...messages].slice(0, 8)) console.log(`  ${n}× ${message}`)
  }
}

/** Prints the whole report, ending with the BENCH_SUMMARY line; `runStarted`: when the run began. */
export function printReport(runStarted) {
  const measuredS = durationS - warmupS
  const kindRows = printRequests()
  printSamples()
  const { start, middle, end, trendRows } = printTrend()

  const measuredSamples = samples.filter((s) => s.t >= warmupS - 1)
  const loopP99 = instances.map((_, i) => measuredSamples.slice(1).map((s) => s.instances[i].loop.p99))
  const failures = totalFailures()
  const growthFound = trendRows.filter((r) => r.judged && r.up)
  const checks = [
    ['failures (network, timeout, 5xx, wrong success)', String(failures), '0', failures === 0],
    [
      'growth of RSS, handles or fds (without client conns), middle → end',
      growthFound.length === 0 ? 'none' : growthFound.map((r) => `${r.instance} ${r.metric} ${r.change}`).join('; '),
      'none',
      growthFound.length === 0,
    ],
  ]
  console.log('')
  printTargets(checks, { figure: 'target', target: 'wanted' })
  console.log(
    `\nevent-loop delay p99 per ${sampleS} s window after the warm-up: ` +
      instances.map((instance, i) => `${instance.name} median ${fmt(median(loopP99[i]))} ms, worst ${fmt(Math.max(...loopP99[i]))} ms`).join('; ') +
      `\nPostgreSQL connections of the database: peak ${pgPeak.connections} (of 2 × 10), at the end ${end.pg.total}` +
      `\nload average at the end: ${os.loadavg().map((v) => v.toFixed(2)).join(' ')} (${os.cpus().length} cores)`,
  )
  // Two servers, PostgreSQL and this script share the cores with whatever else runs: with the load
  // far above the core count, each gets a fraction of one, requests pile up (the open loop does not
  // wait), time out, and sign-ins queue so that a hash is always under way (RSS floor + 32 MiB each).
  const busiest = Math.max(...measuredSamples.map((s) => s.load))
  if (busiest > 2 * os.cpus().length) {
    console.log(
      `\nnote: the load average reached ${busiest.toFixed(2)} on ${os.cpus().length} cores after the warm-up; failures and ` +
        'RSS taken then say as much about the other processes as about the app (see the failures per sample).',
    )
  }

  printServerLogs()

  const summaryOf = (m) => ({
    rssMb: mb(m.memory.rss),
    rssFloorMb: mb(m.rssFloor),
    heapMb: mb(m.memory.heapUsed),
    handles: m.handles,
    fds: m.fds,
    clientConnections: m.clients,
    pgConnections: m.pg,
    loopP99Ms: m.loop.p99,
    cpuPercent: round(m.cpuPercent, 0),
  })
  printSummary('soak', {
    startedAt: runStarted.toISOString(),
    rate,
    durationS,
    warmupS,
    measuredS,
    trafficS: round(driver.trafficS),
    learners: learnerCount,
    requests: totalRequests(),
    failures,
    otherClientErrors: kindRows.at(-1).other4xx,
    learnerDay: { nothingToGrade: learnerDay.nothingToGrade, instead: Object.fromEntries(learnerDay.instead) },
    kinds: Object.fromEntries(
      Object.entries(kinds).map(([name, kind]) => [
        name,
        {
          requests: kind.requests,
          expected: kind.expected,
          other4xx: Object.fromEntries(kind.otherClientErrors),
          failures: Object.fromEntries(kind.failures),
          p50Ms: round(percentile(kind.latencies, 50), 2),
          p99Ms: round(percentile(kind.latencies, 99), 2),
        },
      ]),
    ),
    instances: Object.fromEntries(
      instances.map((instance, i) => [
        instance.name,
        {
          start: summaryOf(start.instances[i]),
          middle: summaryOf(middle.instances[i]),
          end: summaryOf(end.instances[i]),
          loopP99MedianMs: round(median(loopP99[i]), 2),
          loopP99WorstMs: round(Math.max(...loopP99[i]), 2),
        },
      ]),
    ),
    pgConnections: { start: start.pg.total, middle: middle.pg.total, end: end.pg.total, peak: pgPeak.connections },
    redisKeys: { start: start.redisKeys, middle: middle.redisKeys, end: end.redisKeys },
    loadavg: os.loadavg().map((v) => round(v, 2)),
    peakLoadavg: round(busiest, 2),
    growth: growthFound.map((r) => `${r.instance} ${r.metric}`),
    pass: failures === 0 && growthFound.length === 0,
  })
}
