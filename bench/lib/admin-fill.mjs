// The benches' bulk fills: an SQL script (bench/admin-fill.sql for bench/admin.mjs's million
// accounts; bench/assessment-fill.sql, bench/practice-fill.sql) run step by step on one connection, in
// the way PostgreSQL's manual advises for a bulk load ("Populating a Database"): the secondary
// indexes of the filled tables are dropped first and built again afterwards from their own
// definitions (checked to be the same set), the foreign-key triggers are off for the session
// (the rows are consistent by construction: every reference comes from a row just inserted),
// commits do not wait for the disk, and index builds get more memory. Then VACUUM ANALYZE, so
// that the planner has statistics and the visibility map allows index-only scans.
import { readFile } from 'node:fs/promises'
import path from 'node:path'

const filledTables = ['user', 'account', 'session', 'learner_profile']

/** The `-- step: name` parts of the fill scripts `files` (in bench/), in order. */
async function fillSteps(files) {
  const texts = await Promise.all(files.map((file) => readFile(path.join(import.meta.dirname, '..', file), 'utf8')))
  return texts
    .join('\n')
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

/** The `tables`' indexes that no constraint owns (those are kept), with their definitions. */
async function secondaryIndexes(client, tables) {
  const { rows } = await client.query(
    `select indexname as name, indexdef as definition from pg_indexes
     where schemaname = current_schema() and tablename = any($1)
       and indexname not in (select conname from pg_constraint where connamespace = current_schema()::regnamespace)
     order by indexname`,
    [tables],
  )
  return rows
}

/** How many rows the fill left in each table (exact counts). */
async function countRows(client, tables) {
  const counts = {}
  for (const table of tables) {
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
export const fillAccounts = (client, accounts, log = console.log) =>
  runFillScript(client, { files: ['admin-fill.sql'], tables: filledTables, settings: { 'lingua_bench.accounts': String(accounts) }, log })

/**
 * Runs the fill scripts `files` (in bench/, one after the other) step by step on `client`, with the secondary indexes of
 * `tables` dropped meanwhile and `settings` (custom `lingua_bench.*` values the script reads with
 * current_setting) set for the session. Logs each step; resolves to the steps' milliseconds, the
 * session settings that could not be set (a user without the rights), and the rows made.
 */
export async function runFillScript(client, { files, tables, settings: own = {}, log = console.log }) {
  const refused = []
  const settings = {
    jit: 'off',
    synchronous_commit: 'off',
    maintenance_work_mem: '512MB',
    // Superuser only: without it every row of account, session and learner_profile runs the
    // foreign-key checks, which doubled the fill.
    session_replication_role: 'replica',
    ...own,
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

  const indexes = await secondaryIndexes(client, tables)
  await step(`drop ${indexes.length} secondary indexes`, async () => {
    for (const index of indexes) await client.query(`drop index "${index.name}"`)
  })
  for (const { name, sql } of await fillSteps(files)) await step(name, () => client.query(sql))
  await step(`build ${indexes.length} indexes again`, async () => {
    for (const index of indexes) await client.query(index.definition)
  })
  const rebuilt = await secondaryIndexes(client, tables)
  if (JSON.stringify(rebuilt) !== JSON.stringify(indexes)) {
    throw new Error(`the indexes after the fill differ from those before:\n${JSON.stringify({ indexes, rebuilt }, null, 2)}`)
  }
  await client.query(`select set_config('session_replication_role', 'origin', false)`).catch(() => {})
  await step('vacuum analyze', async () => {
    for (const table of tables) await client.query(`vacuum (analyze) "${table}"`)
  })
  return { steps, refused, rows: await countRows(client, tables), indexes: indexes.map((index) => index.name) }
}
