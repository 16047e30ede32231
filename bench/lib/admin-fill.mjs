// bench/admin.mjs's million accounts: bench/admin-fill.sql run step by step on one connection, in
// the way PostgreSQL's manual advises for a bulk load ("Populating a Database"): the secondary
// indexes of the filled tables are dropped first and built again afterwards from their own
// definitions (checked to be the same set), the foreign-key triggers are off for the session
// (the rows are consistent by construction: every reference comes from a row just inserted),
// commits do not wait for the disk, and index builds get more memory. Then VACUUM ANALYZE, so
// that the planner has statistics and the visibility map allows index-only scans.
import { readFile } from 'node:fs/promises'
import path from 'node:path'

const fillSql = path.join(import.meta.dirname, '..', 'admin-fill.sql')
const filledTables = ['user', 'account', 'session', 'learner_profile']

/** The `-- step: name` parts of the fill script, in order. */
async function fillSteps() {
  const text = await readFile(fillSql, 'utf8')
  return text
    .split(/^-- step: /m)
    .slice(1)
    .map((part) => {
      const newline = part.indexOf('\n')
      return { name: part.slice(0, newline).trim(), sql: part.slice(newline + 1) }
    })
}

/** Milliseconds `fn` takes. */
async function timed(fn) {
  const started = performance.now()
  await fn()
  return performance.now() - started
}

/** The filled tables' indexes that no constraint owns (those are kept), with their definitions. */
async function secondaryIndexes(client) {
  const { rows } = await client.query(
    `select indexname as name, indexdef as definition from pg_indexes
     where schemaname = current_schema() and tablename = any($1)
       and indexname not in (select conname from pg_constraint where connamespace = current_schema()::regnamespace)
     order by indexname`,
    [filledTables],
  )
  return rows
}

/** How many rows the fill left in each table (exact counts). */
async function countRows(client) {
  const counts = {}
  for (const table of filledTables) {
    const { rows } = await client.query(`select count(*)::int as n from "${table}"`)
    counts[table] = rows[0].n
  }
  return counts
}

/** The accounts already there: a kept database (BENCH_DATABASE_URL) is not filled twice. */
export async function countAccounts(client) {
  const { rows } = await client.query(`select count(*)::int as n from "user"`)
  return rows[0].n
}

/**
 * Fills the database of `client` (migrated, holding only the bench's administrator) with
 * `accounts` accounts. Logs each step; resolves to the steps' milliseconds, the session settings
 * that could not be set (a user without the rights), and the rows made.
 */
export async function fillAccounts(client, accounts, log = console.log) {
  const refused = []
  const settings = {
    jit: 'off',
    synchronous_commit: 'off',
    maintenance_work_mem: '512MB',
    // Superuser only: without it every row of account, session and learner_profile runs the
    // foreign-key checks, which doubled the fill.
    session_replication_role: 'replica',
    'lingua_bench.accounts': String(accounts),
  }
  for (const [name, value] of Object.entries(settings)) {
    await client.query(`select set_config($1, $2, false)`, [name, value]).catch((error) => {
      refused.push(`${name} (${error.message})`)
    })
  }
  if (refused.length > 0) log(`  could not set ${refused.join(', ')}: the fill is slower`)

  const steps = []
  const step = async (name, fn) => {
    const ms = await timed(fn)
    steps.push({ name, ms })
    log(`  ${name}: ${(ms / 1000).toFixed(1)} s`)
  }

  const indexes = await secondaryIndexes(client)
  await step(`drop ${indexes.length} secondary indexes`, async () => {
    for (const index of indexes) await client.query(`drop index "${index.name}"`)
  })
  for (const { name, sql } of await fillSteps()) await step(name, () => client.query(sql))
  await step(`build ${indexes.length} indexes again`, async () => {
    for (const index of indexes) await client.query(index.definition)
  })
  const rebuilt = await secondaryIndexes(client)
  if (JSON.stringify(rebuilt) !== JSON.stringify(indexes)) {
    throw new Error(`the indexes after the fill differ from those before:\n${JSON.stringify({ indexes, rebuilt }, null, 2)}`)
  }
  await client.query(`select set_config('session_replication_role', 'origin', false)`).catch(() => {})
  await step('vacuum analyze', async () => {
    for (const table of filledTables) await client.query(`vacuum (analyze) "${table}"`)
  })
  return { steps, refused, rows: await countRows(client), indexes: indexes.map((index) => index.name) }
}
