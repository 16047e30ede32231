import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DeckList } from '@/shared/decks'
import type { ImportJob } from '@/shared/imports'
import { writeLargePackage } from '../helpers/anki-large-package'
import { Client, registerAndVerify } from '../helpers/auth-client'
import { type TestDatabase, createTestDatabase } from '../helpers/database'
import { type ServerProcess, expectJson, startServer } from '../helpers/server'

/*
 * An import survives the death of the instance running it (docs/product.md §12, decision 0033):
 * instance A (a process of its own, IMPORT_LEASE_SECONDS=2) is killed with SIGKILL while it plans
 * a large import; instance B, started on the same PostgreSQL, takes the job over once the lease has
 * run out, and is killed too while its writer process (anki-writer.ts) holds the write's
 * transaction: the writer ends with it, and PostgreSQL rolls the transaction back. Instance C ends
 * it `done` with every deck, word and review there exactly once. Nothing of the import is visible
 * before it is done. A job every claim of which died (claimed more than 3 times) ends `failed` as
 * `interrupted`, with nothing stored and its upload gone.
 */

const password = 'correct horse battery'
const NOTES = 5000
const REVIEWS = 50_000
const DECKS = 5
const LEASE_SECONDS = 2

interface JobRow {
  status: string
  attempts: number
  locked_by: string | null
}

describe.runIf(process.env.TEST_DATABASE_URL)('an import when the instance running it is killed (two processes, one PostgreSQL)', () => {
  let database: TestDatabase
  let dataDir: string
  let folder: string
  let packageBytes: Buffer
  const servers: ServerProcess[] = []

  const start = async () => {
    const server = await startServer({
      env: { DATABASE_URL: database.url, DATA_DIR: dataDir, IMPORT_LEASE_SECONDS: String(LEASE_SECONDS) },
    })
    servers.push(server)
    return server
  }

  /** kill -9: no shutdown, no lease given back, the transaction in flight cut. */
  const crash = async (server: ServerProcess) => {
    const exit = await server.stop('SIGKILL')
    expect(exit.signal).toBe('SIGKILL')
  }

  /** The same account (its cookies) on another instance. */
  const on = (server: ServerProcess, client: Client) => {
    const moved = new Client(server)
    for (const [name, value] of client.cookies) moved.cookies.set(name, value)
    return moved
  }

  async function upload(client: Client): Promise<string> {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(packageBytes)]), 'large.apkg')
    const response = await client.request('POST', '/api/me/imports', undefined, {
      body: form,
      headers: { Origin: client.origin, Cookie: client.cookieHeader() },
    })
    return (await expectJson<{ id: string }>(response, 202)).id
  }

  /**
   * A read, sent again after a 503: the instance running the import answers late while it plans
   * (its event loop busy for a second or more on a loaded machine), and a query waiting past 3 s
   * is answered 503. Not what this file tests; any other failure is.
   */
  async function read<T>(client: Client, pathname: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const response = await client.request('GET', pathname)
      if (response.status !== 503 || attempt === 5) return expectJson<T>(response)
      await response.body?.cancel()
      await sleep(200)
    }
  }
  const readJob = (client: Client, id: string) => read<ImportJob>(client, `/api/me/imports/${id}`)
  const readDecks = async (client: Client) => (await read<DeckList>(client, '/api/me/decks')).decks

  /**
   * Polls the job until `until` holds, checking at every step that no deck of the learner shows
   * while the job is not done (the decks are read first: a deck seen, then a job not yet done, is
   * a deck seen before the end).
   */
  async function watch(client: Client, id: string, until: (job: ImportJob) => boolean, timeoutMs: number): Promise<ImportJob> {
    const deadline = Date.now() + timeoutMs
    let seen: string[] = []
    for (;;) {
      let decks, job
      try {
        decks = await readDecks(client)
        job = await readJob(client, id)
      } catch (error) {
        // What the server logged as a warning or worse: why it did not answer 200.
        const logged = client.server.logs.filter((line) => /"level":(4|5|6)\d/.test(line)).slice(-10)
        throw new Error(`${String(error)}\nseen: ${seen.join(', ')}\nserver log:\n${logged.join('\n')}`)
      }
      if (job.status !== 'done') {
        expect(decks.map((deck) => deck.name), `decks shown while the import is ${job.status} (${job.done} of ${job.total})`).toEqual([])
      }
      seen = [...seen.slice(-20), `${job.status} ${job.done}/${job.total}`]
      if (until(job)) return job
      if (job.status === 'done' || job.status === 'failed' || Date.now() > deadline) {
        throw new Error(`the import did not reach the awaited state; seen: ${seen.join(', ')}`)
      }
      await sleep(50)
    }
  }

  const countOf = async (sql: string, userId: string) => Number((await database.query<{ n: string }>(sql, [userId]))[0]?.n)

  async function stored(userId: string) {
    return {
      decks: await countOf('select count(*) as n from deck where user_id = $1', userId),
      notes: await countOf('select count(*) as n from deck_note where user_id = $1', userId),
      words: await countOf('select count(*) as n from word join deck on deck.id = word.deck_id where deck.user_id = $1', userId),
      cards: await countOf('select count(*) as n from practice_card where user_id = $1', userId),
      reviews: await countOf('select count(*) as n from review_log where user_id = $1', userId),
      distinctReviews: await countOf('select count(distinct client_id) as n from review_log where user_id = $1', userId),
      uploads: await countOf('select count(*) as n from import_upload join import_job on import_job.id = import_upload.job_id where import_job.user_id = $1', userId),
    }
  }

  /** The import writer processes (anki-writer.ts) an instance has started, by pid. */
  function writersOf(server: ServerProcess): number[] {
    const parentOf = new Map<number, number>()
    const writers: number[] = []
    for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
        parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
        if (/import-writer\.js|anki-writer-child\.ts/.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) writers.push(Number(entry))
      } catch {
        // Gone meanwhile.
      }
    }
    const under = (pid: number) => {
      for (let at = parentOf.get(pid); at; at = parentOf.get(at)) if (at === server.process.pid) return true
      return false
    }
    return writers.filter(under)
  }

  /** The write's transaction is open, and has written: a transaction open for 200 ms whose last statement went to the import's tables. */
  const writing = async () =>
    Number(
      (
        await database.query<{ n: string }>(
          `select count(*) as n from pg_stat_activity where datname = current_database() and xact_start < now() - interval '200 ms'
             and query ~ '(deck_note|practice_card|review_log)' and pid <> pg_backend_pid()`,
        )
      )[0]?.n,
    ) > 0

  /** Transactions open on the test database, besides this query's. */
  const openTransactions = async () =>
    Number(
      (
        await database.query<{ n: string }>(
          'select count(*) as n from pg_stat_activity where datname = current_database() and xact_start is not null and pid <> pg_backend_pid()',
        )
      )[0]?.n,
    )

  const userIdOf = async (email: string) => (await database.query<{ id: string }>('select id from "user" where email = $1', [email]))[0]?.id ?? ''
  const jobRow = async (id: string) => (await database.query<JobRow>('select status, attempts, locked_by from import_job where id = $1', [id]))[0]

  beforeAll(async () => {
    database = await createTestDatabase()
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-imports-crash-'))
    folder = await mkdtemp(path.join(os.tmpdir(), 'lingua-imports-crash-package-'))
    const file = path.join(folder, 'large.apkg')
    await writeLargePackage(file, { notes: NOTES, reviews: REVIEWS, decks: DECKS })
    packageBytes = await readFile(file)
  })
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop('SIGKILL')))
    await database?.drop()
    await rm(dataDir, { recursive: true, force: true })
    await rm(folder, { recursive: true, force: true })
  })

  it('is taken over by the next instance after a kill -9 while planning, and again while writing (its writer ends, its transaction rolled back), and ends done with every deck, word and review once, none shown before', async () => {
    const a = await start()
    const email = 'crash@example.com'
    const onA = new Client(a)
    await registerAndVerify(onA, dataDir, { email, password })
    const userId = await userIdOf(email)
    const id = await upload(onA)

    // Running on A, some notes read: then A dies.
    const running = await watch(onA, id, (job) => job.status === 'running' && job.done > 0, 60_000)
    expect(running.done).toBeLessThanOrEqual(NOTES)
    await crash(a)
    expect(await jobRow(id)).toMatchObject({ status: 'running', attempts: 1 })
    expect(await stored(userId)).toMatchObject({ decks: 0, notes: 0, words: 0, reviews: 0 })

    // B plans it again, and dies while its writer writes.
    const b = await start()
    await expect.poll(() => writersOf(b).length, { timeout: 120_000, interval: 20 }).toBeGreaterThan(0)
    const [writer] = writersOf(b)
    await expect.poll(writing, { timeout: 60_000, interval: 20 }).toBe(true)
    await crash(b)
    await expect.poll(() => existsSync(`/proc/${writer}`), { timeout: 10_000 }).toBe(false)
    await expect.poll(openTransactions, { timeout: 10_000 }).toBe(0)
    expect(await jobRow(id)).toMatchObject({ status: 'running', attempts: 2 })
    expect(await stored(userId)).toMatchObject({ decks: 0, notes: 0, words: 0, reviews: 0 })

    const c = await start()
    const onC = on(c, onA)
    const done = await watch(onC, id, (job) => job.status === 'done', 120_000)
    expect(done).toMatchObject({ status: 'done', notes: NOTES, cards: NOTES, reviews: REVIEWS, done: NOTES, total: NOTES })
    expect(done.decks.map((deck) => deck.cards)).toEqual(Array.from({ length: DECKS }, () => NOTES / DECKS))
    // Claimed three times: by A, B and C.
    expect(await jobRow(id)).toMatchObject({ status: 'done', attempts: 3, locked_by: null })
    // Then it gathered the statistics of the tables it filled (write.ts), not left to autovacuum.
    const analyzed = `select count(*) as n from pg_stat_user_tables where relname in ('deck_note', 'word', 'practice_card', 'review_log') and last_analyze is not null`
    await expect.poll(async () => (await database.query<{ n: string }>(analyzed))[0]?.n, { timeout: 30_000 }).toBe('4')

    expect(await stored(userId)).toEqual({
      decks: DECKS,
      notes: NOTES,
      words: NOTES,
      cards: NOTES,
      reviews: REVIEWS,
      distinctReviews: REVIEWS,
      uploads: 0,
    })
    const decks = await readDecks(onC)
    expect(decks.map((deck) => [deck.name, deck.total]).sort()).toEqual(
      Array.from({ length: DECKS }, (_, i) => [`Large::Deck ${i + 1}`, NOTES / DECKS]).sort(),
    )
  }, 240_000)

  it('ends failed as interrupted, storing nothing, a job claimed more than 3 times', async () => {
    const b = await start()
    const email = 'interrupted@example.com'
    const onB = new Client(b)
    await registerAndVerify(onB, dataDir, { email, password })
    const userId = await userIdOf(email)
    const id = await upload(onB)
    await watch(onB, id, (job) => job.status === 'running', 60_000)
    await crash(b)
    // As if two more instances had claimed it and died too: the next claim is the fourth.
    expect(await jobRow(id)).toMatchObject({ status: 'running', attempts: 1 })
    await database.query('update import_job set attempts = 3 where id = $1', [id])

    const c = await start()
    const onC = on(c, onB)
    const failed = await watch(onC, id, (job) => job.status === 'failed', 60_000)
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'interrupted' }, notes: 0, reviews: 0, decks: [] })
    expect(await jobRow(id)).toMatchObject({ status: 'failed', attempts: 4, locked_by: null })
    expect(await stored(userId)).toEqual({ decks: 0, notes: 0, words: 0, cards: 0, reviews: 0, distinctReviews: 0, uploads: 0 })
    expect(await readDecks(onC)).toEqual([])
  }, 180_000)
})
