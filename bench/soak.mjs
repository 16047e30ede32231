// Soak: a steady open-loop rate of mixed traffic, for minutes, on two instances of the built app
// sharing one fresh PostgreSQL database (of TEST_DATABASE_URL, dropped afterwards) and Redis (of
// TEST_REDIS_URL, under a REDIS_KEY_PREFIX of its own, deleted afterwards):
//   - password sign-ins (each followed by the sign-out of the session it replaces), session reads
//     (GET /api/me, GET /api/auth/get-session), public list and level reads, profile saves, and
//     administrator edits of levels with the version read, some deliberately with a stale one (409);
//   - the learner's day, about half the requests: practice queue reads, grades of the cards the
//     queue gave (with their version and a fresh client id; some offline-style, answered minutes
//     earlier), the latest grade sent again, grades with a stale version after an undo (409), undo
//     of the latest grade, practice settings saves moving between time zones, self-assessment
//     answers, and about once a minute each a CSV import into the learner's deck and an Anki package
//     import (50 notes, 200 reviews), polled until done; each checked for the right answer;
//   - each instance sampled every --sample seconds, at the end of the warm-up ("start"), half-way
//     through the rest ("middle") and at the end: RSS, heap after a full collection, active
//     handles, open file descriptors and event-loop delay, from bench/soak-probe.mjs loaded into
//     the server with --import (no metrics endpoint); PostgreSQL connections of the database;
//   - per kind: requests, statuses, failures (network error, timeout, 5xx, a wrong success; for the
//     learner's kinds also a 4xx not expected, 429 apart), p50 and p99; a trend verdict (middle
//     against end) and the targets: no failure, no growth.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test TEST_REDIS_URL=redis://127.0.0.1:6379 \
//     node bench/soak.mjs [--rate=50] [--duration=600] [--warmup=60] [--sample=30] [--learners=20]
//                         [--timeout=10] [--seed=1]
//
// The parts, by subject, in bench/soak/: options.mjs (options, constants, seeded randomness),
// traffic.mjs (the kinds of request, sending and recording one, the sessions', levels' and profile's
// actions), learner.mjs (the learner's day: practice, self-assessment, imports), drive.mjs (the open
// loop and the sample schedule), samples.mjs (probing the instances, PostgreSQL connections),
// setup.mjs (the servers' options, the accounts, the learners' profiles, settings and decks),
// trend.mjs and report.mjs (figures, trend verdict, targets, summary line), format.mjs (how the
// figures print).
import {
  assertBuildUnchanged,
  createPgDatabase,
  createRedisNamespace,
  freePort,
  makeTempDir,
  printEnvironment,
  removeDir,
  withServer,
} from './lib.mjs'
import { adminUrl, durationS, learnerCount, rate, redisUrl, sampleS, warmupS } from './soak/options.mjs'
import { drive } from './soak/drive.mjs'
import { printReport } from './soak/report.mjs'
import { startSampling, stopSampling, takeSample } from './soak/samples.mjs'
import { makeInstance, serverOptions, setUpAccounts } from './soak/setup.mjs'
import { instances, run } from './soak/traffic.mjs'

const runStarted = new Date()
printEnvironment({
  rate: `${rate} req/s`,
  duration: `${durationS} s (warm-up ${warmupS} s)`,
  sample: `every ${sampleS} s`,
  learners: learnerCount,
  database: 'PostgreSQL (fresh database of TEST_DATABASE_URL) + Redis (TEST_REDIS_URL, own prefix)',
})

const database = await createPgDatabase(adminUrl)
const redis = await createRedisNamespace(redisUrl)
await startSampling(adminUrl, database, redis)
const dataDir = await makeTempDir('lingua-bench-soak-')
const [portA, portB] = [await freePort(), await freePort()]
run.appUrl = `http://127.0.0.1:${portA}`
const shared = { dataDir, database, redis }

try {
  await withServer(serverOptions('A', portA, shared), (serverA) =>
    withServer(serverOptions('B', portB, shared), async (serverB) => {
      instances.push(makeInstance('A', serverA, dataDir), makeInstance('B', serverB, dataDir))
      console.log(`instances: A ${serverA.url}, B ${serverB.url}; APP_URL ${run.appUrl}; REDIS_KEY_PREFIX ${redis.prefix}\n`)
      await setUpAccounts(serverA, serverB)
      await takeSample('idle', 0)
      await drive()
      assertBuildUnchanged(serverA)
      assertBuildUnchanged(serverB)
    }),
  )
} finally {
  await stopSampling()
  await Promise.all([database.drop(), redis.drop(), removeDir(dataDir)])
}

printReport(runStarted)
