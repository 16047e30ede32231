import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type { Logger } from 'pino'
import { openPglite } from './pglite'
import { openPostgres } from './postgres'
import type * as schema from './schema'

/*
 * The database, by job: what the app sees of it (here), the embedded one (pglite.ts: opening and
 * copying its folder), the PostgreSQL pool (postgres.ts), the LISTEN/NOTIFY connection that is made
 * again when lost (listen.ts), and what a failed query means (errors.ts).
 */

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>
/** A transaction of `Db` (what `db.transaction` gives its callback). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export interface ListenHandlers {
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

export async function openDatabase(options: {
  databaseUrl: string | undefined
  dataDir: string
  logger: Logger
}): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.logger)
    : openPglite(options.dataDir)
}
