import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import type { Logger } from 'pino'
import { migrationsFolder } from '@/server/paths'
import type { Database, Db } from './client'
import { isDatabaseUnavailable } from './errors'
import { listenPostgres } from './listen'
import * as schema from './schema'

/** Any 64-bit key would do; this one is "lingua" in ASCII. */
const MIGRATION_LOCK_KEY = 0x6c696e677561n

/** Connections per process. */
export const POOL_SIZE = 10

// Every API answer comes within 5 s, even when the database stops answering (a black hole: a
// partition, a host gone, connections accepted and never served). A request waits for the
// database at most once: after the first wait runs out it fails (503), and what follows on that
// connection fails at once (see `endOnTimeout`). The one double wait is a checkout that gets a
// connection just before the database goes away, then a query on it: hence these two add up to
// 4.5 s, leaving time for the rest of the request. (pg's 10 s query timeout left requests hanging
// for 10 s, and a transaction's ROLLBACK waited as long again behind its stuck query.)

/** Waiting for a connection of the pool (all busy) or for a new one to be made. */
const CONNECT_TIMEOUT_MS = 1500
/** Waiting for the answer to one query; the app's queries take milliseconds. */
const QUERY_TIMEOUT_MS = 3000

export function openPostgres(databaseUrl: string, logger: Logger): Database {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    query_timeout: QUERY_TIMEOUT_MS,
  })
  // An idle client losing its connection (database restart) must not crash the process. Logged
  // without the client pg-pool attaches to the error (its whole state, connection and all).
  pool.on('error', ({ name, message, code }: Error & { code?: string }) =>
    logger.warn({ err: { type: name, message, code } }, 'idle database connection lost'),
  )
  pool.on('connect', (client) => {
    // A connection lost while its client is checked out (inside a transaction, between two
    // queries) is an 'error' event on the client, which pg-pool listens to only while the client
    // is idle: without a listener of our own, Node would end the process. The client's queries
    // fail with the error (answered 503), and the pool drops it when it is released.
    client.on('error', () => {})
    endOnTimeout(client)
  })
  const db = drizzlePg({ client: pool, schema }) as unknown as Db

  /**
   * drizzle's transaction, on a connection checked out here: drizzle (0.45) sends BEGIN before its
   * try/finally, so a BEGIN that fails (times out, connection lost) would never give its connection
   * back, and the pool would shrink by one each time until nothing is served. A connection that
   * failed that way is closed rather than reused.
   */
  const onConnection = new WeakMap<pg.PoolClient, Db>()
  const transaction: Db['transaction'] = async (run, transactionConfig) => {
    const client = await pool.connect()
    let broken: Error | undefined
    try {
      // One drizzle per connection of the pool, made on its first transaction: making one reads
      // the whole schema's relations (made for every transaction, 5 % of an answer's CPU).
      let onClient = onConnection.get(client)
      if (!onClient) {
        onClient = drizzlePg({ client, schema })
        onConnection.set(client, onClient)
      }
      return await onClient.transaction(run, transactionConfig)
    } catch (error) {
      if (isDatabaseUnavailable(error)) broken = error instanceof Error ? error : new Error(String(error))
      throw error
    } finally {
      client.release(broken)
    }
  }
  db.transaction = transaction

  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await db.execute(sql`select 1`)
    },
    migrate: async () => {
      // A connection of its own, without the pool's query timeout: a migration may take longer
      // than a request's query, and startup can wait for it.
      const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 })
      await client.connect()
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()])
        try {
          await migratePg(drizzlePg({ client, schema }), { migrationsFolder })
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()])
        }
      } finally {
        await client.end()
      }
    },
    listen: (channel, handlers) => listenPostgres(databaseUrl, CONNECT_TIMEOUT_MS, logger, channel, handlers),
    close: () => pool.end(),
  }
}

/**
 * When a query times out, pg answers it with an error but keeps waiting for its reply on the
 * connection, and every query sent after it on that connection (a transaction's ROLLBACK, the
 * next request's query) waits behind it, each for its own timeout. Ending the connection at once
 * fails those straight away ("Connection terminated"), and the pool replaces it.
 */
function endOnTimeout(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown
  const end = (error: unknown) => {
    if (error instanceof Error && error.message === 'Query read timeout') {
      // What pg-pool itself does to a connection that does not connect in time.
      ;(client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy()
    }
  }
  ;(client as unknown as { query: unknown }).query = (...args: unknown[]) => {
    const callback = args.at(-1)
    if (typeof callback === 'function') {
      // pg-pool's own pool.query passes a callback.
      args[args.length - 1] = (error: unknown, result: unknown) => {
        end(error)
        ;(callback as (error: unknown, result: unknown) => void)(error, result)
      }
      return query(...args)
    }
    const result = query(...args)
    if (result instanceof Promise) result.catch(end)
    return result
  }
}
