import { existsSync } from 'node:fs'
import { cp, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import type { Logger } from 'pino'
import { migrationsFolder, pgliteTemplate } from '../paths.js'
import * as schema from './schema.js'

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export interface Database {
  readonly db: Db
  readonly kind: 'pglite' | 'postgres'
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>
  /** Applies pending migrations; safe when several instances start at once. */
  migrate(): Promise<void>
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
  // A new database starts as a copy of the build's template: initdb in WebAssembly takes seconds.
  if (!existsSync(path.join(folder, 'PG_VERSION')) && existsSync(pgliteTemplate)) {
    await cp(pgliteTemplate, folder, { recursive: true })
  }
  const client = await PGlite.create(folder)
  const db = drizzlePglite({ client, schema }) as unknown as Db
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await client.query('select 1')
    },
    migrate: () => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder }),
    close: () => client.close(),
  }
}

function openPostgres(databaseUrl: string, logger: Logger): Database {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    // A query never waits longer than this; the client gets a 503 instead of a hang.
    query_timeout: 10_000,
  })
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', (error) => logger.warn({ err: error }, 'idle database connection lost'))
  const db = drizzlePg({ client: pool, schema }) as unknown as Db
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await db.execute(sql`select 1`)
    },
    migrate: async () => {
      const client = await pool.connect()
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()])
        try {
          await migratePg(drizzlePg({ client, schema }), { migrationsFolder })
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()])
        }
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
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

/** An error and its causes: drizzle wraps the driver's error in a DrizzleQueryError. */
function* errorChain(error: unknown): Generator<{ code?: unknown; message?: unknown; constraint?: unknown }> {
  for (let e: unknown = error, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    yield e
    e = (e as { cause?: unknown }).cause
  }
}

/** Whether an error means the database cannot be reached (answer 503, not 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const { code, message } of errorChain(error)) {
    if (typeof code === 'string' && unavailableCodes.has(code)) return true
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error/i.test(
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
