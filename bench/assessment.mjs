// Answering the self-assessment with 100,000 assessments stored (issue 32, item 7), on PostgreSQL:
//   1. a fresh database of TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres),
//      migrated by the built server, which then runs on it;
//   2. --assessments (100,000) assessments, 40 % in progress and 60 % finished with their results,
//      and their answers, for as many learners as finished ones (each has one finished, the first
//      40 % one in progress too), with sessions: bench/learners-fill.sql and
//      bench/assessment-fill.sql from generate_series, timed;
//   3. --learners (2,000) of the learners with one in progress answer it at once: wrk -t2 -c64
//      -d10s (after a 2 s warm-up) POSTs /api/me/assessment/answers, each learner in turn with the
//      next answer of their plan (bench/lib/wrk-learners.lua), so every request is an answer the
//      server accepts; the answers by status (non-2xx counted and reported), req/s, p50/p95/p99,
//      target p99 ≤ 20 ms; the load average and `node -e ""` before and after;
//   4. EXPLAIN (ANALYZE, BUFFERS) of the answer's statements for one learner.
//   5. with --baseline (issue 45), bench/api-baseline.mjs on the same database, run right before and
//      right after the answers' run (turns B A B): their req/s ÷ the baseline's, target ≥ 0.25 (in
//      place of the latency target).
//   6. with --against=<dir>, an earlier build (a folder laid out as dist/) beside this one on the
//      same database, both measured in turns A B B A after the rest.
//
//   npm run bench:assessment [-- --assessments=100000 --learners=2000 --duration=10s
//                               --connections=64 --threads=2 --warmup=2s --baseline]
//   BENCH_KEEP=1                 keep the database afterwards (its URL is printed)
//   BENCH_DATABASE_URL=<url>     use that database (filled if it is not yet; never dropped)
import { explain } from './lib/admin-plans.mjs'
import { cpuPerRequest, cpuSnapshot, hostFigures, hostLine, loadAverages } from './lib/host.mjs'
import { baselineLine, besideBaseline, learnerCookies, runLearnersWrk, sampleWaits, settle, waitsLine, withLearnersDatabase } from './lib/learners.mjs'
import {
  parseArgs,
  parseDuration,
  printBusyNote,
  printEnvironment,
  printSummary,
  printTable,
  requireBuild,
  requireCommand,
  round,
  verdict,
  wrkSettings,
} from './lib.mjs'

requireBuild()
requireCommand('wrk', 'apt-get install wrk')

const args = parseArgs()
const assessments = Number(args.assessments ?? 100_000)
const inProgress = Math.round(assessments * 0.4)
const finished = assessments - inProgress
const active = Math.min(Number(args.learners ?? 2000), inProgress)
const { wrkOptions, warmup } = wrkSettings(args)
const p99TargetMs = 20
const baselineShare = 0.25
// The session cache cookie lasts 60 s; fresh ones are taken right before each run.
if (!(parseDuration(warmup) + parseDuration(wrkOptions.duration) < 55_000)) {
  console.error('--warmup + --duration must stay under 55 s: the session cache cookie lasts 60 s.')
  process.exit(2)
}

printEnvironment({
  assessments: `${assessments.toLocaleString('en')} (${finished.toLocaleString('en')} finished, ${inProgress.toLocaleString('en')} in progress)`,
  learners: `${active.toLocaleString('en')} answering`,
  wrk: `-t${wrkOptions.threads} -c${wrkOptions.connections} -d${wrkOptions.duration} --latency`,
  warmup,
})
const hostBefore = await hostFigures()
console.log(`before: ${hostLine(hostBefore)}`)

/** The learners answering: spread over those with an assessment in progress (learners 1..inProgress). */
const activeIndexes = Array.from({ length: active }, (_, k) => 1 + Math.floor((k * inProgress) / active))

/** What each learner has left to answer of their plan, in order: "statementId:can|not-yet,…". */
async function remainingAnswers(client, userIds) {
  const { rows } = await client.query(
    `select a.user_id, string_agg(p.statement_id || ':' || case when p.can then 'can' else 'not-yet' end, ',' order by p.step) as items
     from assessment as a
     cross join lateral bench_plan(a.id) as p
     where a.user_id = any($1) and a.finished_at is null
       and not exists (select 1 from assessment_answer as x where x.assessment_id = a.id and x.statement_id = p.statement_id)
     group by a.user_id`,
    [userIds],
  )
  return new Map(rows.map((row) => [row.user_id, row.items]))
}

const outcome = await withLearnersDatabase(
  {
    fill: {
      files: ['learners-fill.sql', 'assessment-fill.sql'],
      tables: ['user', 'session', 'assessment', 'assessment_answer'],
      settings: {
        'lingua_bench.learners': String(finished),
        'lingua_bench.finished': String(finished),
        'lingua_bench.in_progress': String(inProgress),
      },
    },
    cpuProfile: Boolean(args['cpu-prof']),
    baseline: Boolean(args.baseline),
    against: args.against,
    filled: async (client) => (await client.query(`select count(*)::int as n from assessment`)).rows[0].n >= assessments,
  },
  async (app, client, { fill, databaseBytes, dataDir, databaseUrl, baseline, against }) => {
    const { rows: counts } = await client.query(
      `select (select count(*) from assessment where finished_at is not null)::int as finished,
              (select count(*) from assessment where finished_at is null)::int as in_progress,
              (select count(*) from assessment_answer)::bigint as answers`,
    )
    console.log(`stored: ${JSON.stringify(counts[0])}`)
    const { rows: idRows } = await client.query(
      `select md5('lingua-bench-learner-' || i) as id from unnest($1::int[]) with ordinality as listed(i, n) order by n`,
      [activeIndexes],
    )
    const userIds = idRows.map((row) => row.id)
    const answersBefore = Number(counts[0].answers)

    const run = async (duration, server = app) => {
      const cookies = await learnerCookies(server, client, userIds)
      const remaining = await remainingAnswers(client, userIds)
      const lines = userIds.map((id, index) => `${cookies[index]}\t${remaining.get(id) ?? ''}`)
      const left = [...remaining.values()].reduce((total, items) => total + items.split(',').length, 0)
      const cpuBefore = await cpuSnapshot(server, client)
      const sampler = await sampleWaits(databaseUrl)
      const result = await runLearnersWrk(`${server.url}/api/me/assessment/answers`, {
        mode: 'answers',
        lines,
        dir: dataDir,
        ...wrkOptions,
        duration,
      })
      const waits = await sampler.stop()
      await settle(client)
      const cpu = cpuPerRequest(cpuBefore, await cpuSnapshot(server, client), result.requests)
      return { ...result, left, withWork: remaining.size, cpu, waits }
    }
    if (parseDuration(warmup) > 0) {
      const warm = await run(warmup)
      console.log(`warm-up: ${warm.requests} answers, statuses ${JSON.stringify(warm.statuses)}`)
    }
    const measured = await besideBaseline(baseline, wrkOptions, () => run(wrkOptions.duration))
    // --against=<dist>: this build and the other in turns A B B A, each after a warm-up.
    let builds
    if (against) {
      builds = { this: [], other: [] }
      for (const side of ['this', 'other', 'other', 'this']) {
        const server = side === 'this' ? app : against
        if (parseDuration(warmup) > 0) await run(warmup, server)
        const turn = await run(wrkOptions.duration, server)
        console.log(`${side === 'this' ? 'this build' : 'the other build'}: ${turn.requests} answers, statuses ${JSON.stringify(turn.statuses)}, ${turn.requestsPerSec.toFixed(0)} req/s, CPU ${turn.cpu.serverMs.toFixed(2)} + ${turn.cpu.postgresMs.toFixed(2)} ms`)
        builds[side].push(turn)
      }
    }
    const load = loadAverages()
    console.log(
      `\n${measured.withWork} learners with ${measured.left.toLocaleString('en')} answers left before the run; ` +
        `${measured.requests} answers: statuses ${JSON.stringify(measured.statuses)}, exhausted ${measured.exhausted}, socket errors ${measured.errors}`,
    )
    const { rows: after } = await client.query(`select count(*)::bigint as answers, (select count(*) from assessment where finished_at is null)::int as in_progress from assessment_answer`)

    // The statements of one answer (store.ts's answerStatement), for a learner still answering.
    const [sample] = (await remainingAnswers(client, userIds.slice(-50))).entries()
    const plans = []
    if (sample) {
      const [userId, items] = sample
      const [statementId, answer] = items.split(',')[0].split(':')
      const { rows: [row] } = await client.query(`select id from assessment where user_id = $1 and finished_at is null`, [userId])
      const id = row.id
      const statements = {
        'in progress, locked': `select * from assessment where user_id = '${userId}' and finished_at is null for update`,
        levels: `select id, code from language_level order by position, id`,
        statements: `select id, level_id, skill, position from can_do_statement`,
        answers: `select statement_id, can, answered_at from assessment_answer where assessment_id = ${id} order by answered_at, statement_id`,
        'answer (upsert)': `insert into assessment_answer (assessment_id, statement_id, can) values (${id}, ${statementId}, ${answer === 'can'})
          on conflict (assessment_id, statement_id) do update set can = excluded.can, answered_at = now()`,
      }
      await client.query('begin')
      try {
        for (const [name, sql] of Object.entries(statements)) plans.push({ name, ...(await explain(client, sql)) })
      } finally {
        await client.query('rollback')
      }
    }
    return {
      fill,
      databaseBytes,
      measured,
      builds,
      counts: counts[0],
      answersAdded: Number(after[0].answers) - answersBefore,
      inProgressAfter: after[0].in_progress,
      load,
      plans,
    }
  },
)

const hostAfter = await hostFigures()
const { fill, databaseBytes, measured, builds, counts, plans } = outcome

console.log('\nEXPLAIN (ANALYZE, BUFFERS) of one answer\'s statements')
for (const plan of plans) console.log(`\n— ${plan.name}:\n${plan.lines.map((line) => `    ${line}`).join('\n')}`)
console.log('')
printTable(
  plans.map((p) => ({ statement: p.name, ms: p.executionMs.toFixed(3), scans: p.scans.join(', ') })),
  [
    { key: 'statement', label: 'statement', align: 'left' },
    { key: 'ms', label: 'exec ms', align: 'right' },
    { key: 'scans', label: 'scans', align: 'left' },
  ],
)

// With --baseline the target is issue 45's, which replaced the latency one.
const target = measured.baseline ? `≥ ${baselineShare} × baseline` : `p99 ≤ ${p99TargetMs}`
const met = measured.baseline ? measured.ratio >= baselineShare : measured.percentiles.p99 <= p99TargetMs
const ok = met && measured.non2xx === 0 && measured.errors === 0 && measured.exhausted === 0
console.log(`\nPOST /api/me/assessment/answers (wrk -t${wrkOptions.threads} -c${wrkOptions.connections} -d${wrkOptions.duration}; target ${target})`)
printTable(
  [
    {
      rps: measured.requestsPerSec.toFixed(0),
      p50: measured.percentiles.p50?.toFixed(2),
      p95: measured.percentiles.p95?.toFixed(2),
      p99: measured.percentiles.p99?.toFixed(2),
      max: measured.latency.max.toFixed(2),
      requests: measured.requests,
      bad: `${measured.non2xx}/${measured.errors}/${measured.exhausted}`,
      verdict: verdict(ok),
    },
  ],
  [
    { key: 'rps', label: 'req/s', align: 'right' },
    { key: 'p50', label: 'p50 ms', align: 'right' },
    { key: 'p95', label: 'p95 ms', align: 'right' },
    { key: 'p99', label: 'p99 ms', align: 'right' },
    { key: 'max', label: 'max ms', align: 'right' },
    { key: 'requests', label: 'answers', align: 'right' },
    { key: 'bad', label: 'non-2xx/sock err/exhausted', align: 'right' },
    { key: 'verdict', label: target, align: 'left' },
  ],
)
console.log(
  `CPU per answer: server ${measured.cpu.serverMs.toFixed(2)} ms, PostgreSQL ${measured.cpu.postgresMs.toFixed(2)} ms ` +
    '(/proc/<pid>/stat of the server and of the database\'s backends over the run, divided by its answers)',
)
console.log(`the database's connections during the run: ${waitsLine(measured.waits)}`)
if (measured.baseline) console.log(baselineLine(measured))
if (builds) {
  const sideOf = (turns) => {
    const requests = turns.reduce((sum, run) => sum + run.requests, 0)
    const per = (key) => turns.reduce((sum, run) => sum + run.cpu[key] * run.requests, 0) / requests
    return `${(turns.reduce((sum, run) => sum + run.requestsPerSec, 0) / turns.length).toFixed(0)} req/s, p99 ${turns.map((run) => run.percentiles.p99?.toFixed(2)).join(' / ')} ms, CPU ${per('serverMs').toFixed(2)} + ${per('postgresMs').toFixed(2)} ms`
  }
  console.log(`this build and ${args.against}, in turns A B B A: this ${sideOf(builds.this)}; the other ${sideOf(builds.other)}`)
}
console.log(`answers stored by the run (warm-up included): ${outcome.answersAdded.toLocaleString('en')}; in progress after: ${outcome.inProgressAfter.toLocaleString('en')}`)
if (fill) console.log(`fill: ${(fill.totalMs / 1000).toFixed(1)} s (${fill.steps.map((s) => `${s.name} ${(s.ms / 1000).toFixed(1)} s`).join(', ')})`)
console.log(`database: ${(databaseBytes / 1024 ** 3).toFixed(2)} GiB; stored ${JSON.stringify(counts)}`)
console.log(`host before: ${hostLine(hostBefore)}`)
console.log(`host after:  ${hostLine(hostAfter)} (load at the end of the run: ${outcome.load})`)
printBusyNote()

printSummary('assessment', {
  assessments,
  learners: active,
  wrk: wrkOptions,
  fillMs: fill ? round(fill.totalMs, 0) : null,
  databaseBytes,
  answers: {
    requestsPerSec: round(measured.requestsPerSec),
    p50Ms: round(measured.percentiles.p50, 2),
    p95Ms: round(measured.percentiles.p95, 2),
    p99Ms: round(measured.percentiles.p99, 2),
    requests: measured.requests,
    statuses: measured.statuses,
    exhausted: measured.exhausted,
    socketErrors: measured.errors,
    cpuServerMs: round(measured.cpu.serverMs, 2),
    cpuPostgresMs: round(measured.cpu.postgresMs, 2),
    waits: measured.waits,
    baselineRequestsPerSec: measured.baseline ? round(measured.baseline.requestsPerSec) : null,
    ratioToBaseline: measured.baseline ? round(measured.ratio, 3) : null,
  },
  p99TargetMs,
  baselineShare,
  hostBefore,
  hostAfter,
})
