import fc from 'fast-check'
import pg from 'pg'
import type { LanguageLevel } from '@/shared/levels'
import { type AdminWorld, startAdminWorld } from '../accounts'
import { type DatabaseTarget, databaseTargets } from '../database'
import { allLevels } from '../levels'
import { conformanceChecker } from '../openapi-conformance'
import { freePort } from '../../../scripts/lib/server.mjs'
import { expectJson, startServer } from '../server'
import { type BatchOptions, answerProblem, logProblems } from './answers'
import { type Digest, apiDigest, changedParts, postgresDigest } from './digests'
import { CONCURRENCY, type Site, closeAgents, fire, inPool } from './fire'
import { type OpenApiDocument, type Operation, operationsOf } from './openapi'
import { type Shot, describeShot, traffic } from './shots'

/** Requests per batch: a batch is fired at once (CONCURRENCY at a time) between two digests. */
const BATCH = 16

/**
 * The environment of a server run as in production: with NODE_ENV=test (the helpers' default)
 * better-auth turns its own origin, callback URL and CSRF checks off, and hostile input would meet
 * another server. Its APP_URL is the address the clients use, the one better-auth trusts.
 */
export async function production(): Promise<Record<string, string>> {
  const port = String(await freePort())
  return { NODE_ENV: 'production', PORT: port, APP_URL: `http://127.0.0.1:${port}` }
}

/** A server under fire, what it serves, and the properties' runner. */
export interface HostileRun {
  world: AdminWorld
  /** The main server, with a visitor, a learner and an administrator. */
  main: Site
  /** The operations of its OpenAPI document. */
  operations: Operation[]
  levels: LanguageLevel[]
  /** What the server stored: its tables on PostgreSQL, what its API shows of them on PGlite. */
  digest(): Promise<Digest>
  /**
   * Runs a property for `runs` batches of shots and throws a readable error on the first problem.
   * Past `budgetMs` fast-check stops: with the failure found so far, shrunk as far as it got (a
   * hang costs ANSWER_TIMEOUT_MS per shrinking step), or, with none, fewer requests than planned,
   * which the count at the end reports.
   */
  check: (runs: number, arbitrary: fc.Arbitrary<Shot>, options: BatchOptions, where?: Site, budgetMs?: number) => Promise<void>
  /** How many answers had this status so far. */
  statusCount: (status: number) => number
  /** How many properties failed: a failed one stops early, so the request count means nothing. */
  readonly failedProperties: number
  stop(): Promise<void>
}

/** PostgreSQL when CI gives one (the database is then read directly), else the embedded database. */
export const hostileTarget: DatabaseTarget = databaseTargets().includes('postgres') ? 'postgres' : 'pglite'

/**
 * Starts the main server on `hostileTarget` as in production, with rate limits 10 000 times higher and a
 * client address per request (see headersOf in ./fire): what is tested is the validation, not the
 * limiter. `seed` is fast-check's, for every property.
 */
export async function startHostileRun(seed = 0): Promise<HostileRun> {
  const world = await startAdminWorld(hostileTarget, 'hostile', {
    ...(await production()),
    AUTH_RATE_LIMIT_SCALE: '10000',
    ACCOUNT_RATE_LIMIT_SCALE: '10000',
    TRUST_PROXY: 'true',
    // abandonBody reads the status of an abandoned request from its log line.
    LOG_REQUESTS: 'true',
    // A process of its own: better-auth takes NODE_ENV from the process (see production()).
  }, startServer)
  const main: Site = { server: world.server, clients: { visitor: undefined, learner: world.learner, admin: world.admin } }
  const document = await expectJson<OpenApiDocument>(await world.visitor.request('GET', '/api/openapi.json'))
  const conformance = conformanceChecker(document as unknown as Parameters<typeof conformanceChecker>[0])

  // PostgreSQL is read directly; the embedded database has one process only: the server's.
  let database: pg.Client | undefined
  let digest: () => Promise<Digest>
  if (world.server.database) {
    database = new pg.Client({ connectionString: world.server.database.url })
    await database.connect()
    digest = postgresDigest(database, world.dataDir)
  } else {
    digest = apiDigest(world)
  }

  const statuses = new Map<number, number>()
  const statusCount = (status: number) => statuses.get(status) ?? 0
  const logCursor = { at: 0 }
  let previousDigest: Digest | undefined
  let failedProperties = 0

  /**
   * Fires one batch and throws a readable error on the first problem: an answer (5xx, hang, wrong
   * shape, a write not refused), the log, or the digest when the batch was built to be invalid.
   */
  async function fireBatch(where: Site, batch: (Shot | undefined)[], options: BatchOptions) {
    const shots = batch.filter((s): s is Shot => s !== undefined)
    if (shots.length === 0) return
    // The digest after the last batch is this one's before, if nothing else ran in between.
    const before = options.invalid && where === main ? (previousDigest ?? (await digest())) : undefined
    previousDigest = undefined
    const results = await inPool(shots, CONCURRENCY, async (s) => {
      try {
        const answer = await fire(where, s)
        if (answer) statuses.set(answer.status, statusCount(answer.status) + 1)
        return { s, problem: answerProblem(s, answer, options, conformance) }
      } catch (error) {
        return { s, problem: String(error) }
      }
    })
    const problems = results.flatMap(({ s, problem }) => (problem ? [`${describeShot(s)}\n    → ${problem}`] : []))
    const after = before && (await digest())
    previousDigest = after
    if (before && after) {
      const changed = changedParts(before, after)
      if (changed.length) problems.push(`the batch changed ${changed.join(', ')}; it was built to change nothing`)
    }
    problems.push(...logProblems(where.server, logCursor))
    if (problems.length) throw new Error(problems.join('\n'))
  }

  return {
    world,
    main,
    operations: operationsOf(document),
    levels: await allLevels(world.admin),
    digest,
    async check(runs, arbitrary, options, where = main, budgetMs = 90_000) {
      logCursor.at = where.server.logs.length
      previousDigest = undefined
      try {
        await fc.assert(
          fc.asyncProperty(batchOf(arbitrary), (batch) => fireBatch(where, batch, options)),
          { seed, numRuns: runs, interruptAfterTimeLimit: budgetMs },
        )
      } catch (error) {
        failedProperties += 1
        throw error
      }
    },
    statusCount,
    get failedProperties() {
      return failedProperties
    },
    async stop() {
      await database?.end()
      closeAgents()
    },
  }
}

/** About how many bytes the request line and headers of a shot take. */
function headerBytes(s: Shot): number {
  return s.target.length + s.headers.reduce((sum, h) => sum + h.name.length + (h.value?.length ?? 0) + 4, 0) + 600
}

/**
 * A fixed-size batch whose shots fast-check may drop while shrinking, down to the culprit. Request
 * lines and headers stay under Node's 16 KiB: beyond, Node answers 431 itself, or resets the
 * connection while the client still writes (the framing property sends those on purpose).
 */
const batchOf = (arbitrary: fc.Arbitrary<Shot>) =>
  fc.array(
    fc.option(
      arbitrary.filter((s) => s.raw !== undefined || headerBytes(s) < 15 * 1024),
      { freq: 10_000, nil: undefined },
    ),
    { minLength: BATCH, maxLength: BATCH },
  )

/** Requests fired so far, by every run of this file. */
export const requestsFired = () => traffic.fired
