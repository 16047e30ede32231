import { existsSync } from 'node:fs'
import { copyFile, mkdir, readdir } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import type { Logger } from 'pino'
import { errorChain } from '@/server/error-chain'
import { migrationsFolder, pgliteTemplate } from '@/server/paths'
import { lockFolder } from './folder-lock'
import * as schema from './schema'

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

interface ListenHandlers {
  message: (payload: string) => void
  lost?: () => void
  /** `missed`: the connection was made again, and what was sent meanwhile is lost. */
  resumed?: (missed: boolean) => void
}

export interface Database {
  readonly db: Db
  readonly kind: 'pglite' | 'postgres'
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>
  /** Applies pending migrations; safe when several instances start at once. */
  migrate(): Promise<void>
  /**
   * Calls `message` with the payload of every NOTIFY on `channel` (from any instance, once the
   * notifying transaction commits). PostgreSQL: a connection of its own, which notifies itself to
   * know it is heard; when it falls silent or is lost, `lost` is called, and once it is heard again
   * (made again if lost: messages sent meanwhile are missed), `resumed`. Resolves to a function that
   * stops listening.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>
  close(): Promise<void>
}

/** Any 64-bit key would do; this one is "lingua" in ASCII. */
const MIGRATION_LOCK_KEY = 0x6c696e677561n

export async function openDatabase(options: {
  databaseUrl: string | undefined
  dataDir: string
  logger: Logger
}): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.logger)
    : openPglite(options.dataDir)
}

async function openPglite(dataDir: string): Promise<Database> {
  // PGlite does not create parent folders.
  await mkdir(dataDir, { recursive: true })
  const folder = path.join(dataDir, 'pglite')
  const unlock = await lockFolder(folder)
  try {
    return await openPgliteFolder(folder, unlock)
  } catch (error) {
    unlock()
    throw error
  }
}

/**
 * Copies a folder's files into another, all at once (the template's 1,000 files: `fs.cp` does one
 * after the other, a quarter slower, and this is part of a first start).
 */
async function copyFolder(from: string, to: string) {
  const entries = await readdir(from, { recursive: true, withFileTypes: true })
  const target = (entry: { parentPath: string; name: string }) => path.join(to, path.relative(from, entry.parentPath), entry.name)
  await mkdir(to, { recursive: true })
  for (const entry of entries) if (entry.isDirectory()) await mkdir(target(entry), { recursive: true })
  await Promise.all(
    entries.filter((entry) => entry.isFile()).map((entry) => copyFile(path.join(entry.parentPath, entry.name), target(entry))),
  )
}

async function openPgliteFolder(folder: string, unlock: () => void): Promise<Database> {
  // A new database starts as a copy of the build's template: initdb in WebAssembly takes seconds.
  if (!existsSync(path.join(folder, 'PG_VERSION')) && existsSync(pgliteTemplate)) {
    await copyFolder(pgliteTemplate, folder)
  }
  // pg_trgm: the people search's indexes (migration 0005).
  const client = await PGlite.create(folder, { extensions: { pg_trgm } })
  const db = drizzlePglite({ client, schema }) as unknown as Db
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await client.query('select 1')
    },
    migrate: () => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder }),
    // One connection, in one process: a NOTIFY reaches this listener when its transaction commits.
    listen: async (channel, { message }) => client.listen(channel, message),
    close: async () => {
      await client.close()
      unlock()
    },
  }
}

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

function openPostgres(databaseUrl: string, logger: Logger): Database {
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
  const transaction: Db['transaction'] = async (run, transactionConfig) => {
    const client = await pool.connect()
    let broken: Error | undefined
    try {
      const onClient = drizzlePg({ client, schema }) as unknown as Db
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
    listen: (channel, handlers) => listenPostgres(databaseUrl, logger, channel, handlers),
    close: () => pool.end(),
  }
}

/** The longest wait between two attempts to make the listening connection again. */
const LISTEN_RETRY_MAX_MS = 10_000

/** LISTEN on a connection of its own (a pooled one is shared), made again while it is lost. */
/**
 * How often the listening connection notifies itself, and how long without hearing anything it is
 * taken for lost: a connection into a black hole (a partition, a host gone) stays open for minutes
 * without an error, and what is kept on the strength of the events (cached reads) must not be
 * trusted meanwhile.
 */
const LISTEN_PING_MS = 400
const LISTEN_SILENCE_MS = 1_000
const PING = 'ping'

async function listenPostgres(
  databaseUrl: string,
  logger: Logger,
  channel: string,
  { message, lost, resumed }: ListenHandlers,
): Promise<() => Promise<void>> {
  let stopped = false
  let client: pg.Client | undefined
  let retryTimer: NodeJS.Timeout | undefined
  const quoted = `"${channel.replaceAll('"', '""')}"`
  /** Whether the events are heard now, and when the connection last said anything. */
  let hearing = true
  let heardAt = Date.now()
  /** A new connection since the events were last heard: what was sent meanwhile is lost. */
  let reconnected = false
  const heard = () => {
    heardAt = Date.now()
    if (hearing) return
    hearing = true
    resumed?.(reconnected)
    reconnected = false
  }
  const silent = () => {
    if (!hearing) return
    hearing = false
    lost?.()
  }
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true })
    next.on('notification', (notification) => {
      if (notification.channel !== channel) return
      heard()
      if (notification.payload !== PING) message(notification.payload ?? '')
    })
    next.on('error', () => {})
    next.on('end', () => {
      if (stopped || client !== next) return
      logger.warn({ channel }, 'database notifications lost: listening again')
      silent()
      retry(0)
    })
    try {
      await next.connect()
      await next.query(`LISTEN ${quoted}`)
    } catch (error) {
      await next.end().catch(() => {})
      throw error
    }
    if (client !== undefined || retryTimer !== undefined) reconnected = true
    client = next
  }
  const retry = (attempt: number) => {
    client = undefined
    retryTimer = setTimeout(() => {
      // Heard again once its first ping comes back: what was sent meanwhile was missed.
      connect().catch(() => retry(attempt + 1))
    }, Math.min(LISTEN_RETRY_MAX_MS, 250 * 2 ** attempt))
    retryTimer.unref()
  }
  let pinging = false
  const pinger = setInterval(() => {
    if (Date.now() - heardAt > LISTEN_SILENCE_MS) silent()
    if (!client || pinging) return
    pinging = true
    client
      .query(`NOTIFY ${quoted}, '${PING}'`)
      .catch(() => {})
      .finally(() => (pinging = false))
  }, LISTEN_PING_MS)
  pinger.unref()
  await connect()
  return async () => {
    stopped = true
    clearInterval(pinger)
    clearTimeout(retryTimer)
    await client?.end().catch(() => {})
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

const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08006',
])

/** Whether an error means the database cannot be reached (answer 503, not 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const { code, message, severity } of errorChain(error)) {
    if (typeof code === 'string' && unavailableCodes.has(code)) return true
    // PostgreSQL ends the session with a FATAL error: it does not take connections to this
    // database now (55000, "not currently accepting connections"), is starting or stopping, or
    // refuses the login. No query of this request can run.
    if (severity === 'FATAL') return true
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|Query read timeout|is not queryable/i.test(
        message,
      )
    )
      return true
  }
  return false
}

/**
 * Two transactions got in each other's way (a deadlock, or a serialization failure): PostgreSQL
 * aborted this one. Nothing was written; the same request may simply be sent again.
 */
export function isTransactionConflict(error: unknown): boolean {
  for (const { code } of errorChain(error)) {
    if (code === '40P01' || code === '40001') return true
  }
  return false
}

/** Integrity violations the API answers as the client's error (PostgreSQL's SQLSTATE codes). */
export const UNIQUE_VIOLATION = '23505'
export const FOREIGN_KEY_VIOLATION = '23503'

/** The name of the constraint (or unique index) an error violated with `sqlState`, if it did. */
export function violatedConstraint(
  error: unknown,
  sqlState: typeof UNIQUE_VIOLATION | typeof FOREIGN_KEY_VIOLATION,
): string | undefined {
  for (const { code, constraint } of errorChain(error)) {
    if (code === sqlState && typeof constraint === 'string') return constraint
  }
  return undefined
}
