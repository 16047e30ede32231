import pg from 'pg'
import { createPostgresDatabase } from '../../scripts/lib/databases.mjs'

export type DatabaseTarget = 'pglite' | 'postgres'

/** The databases the API suites run on: always the embedded one, PostgreSQL when a server is given. */
export function databaseTargets(): DatabaseTarget[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']
}

export interface TestDatabase {
  readonly name: string
  /** Connection URL of the new database, for the server's DATABASE_URL. */
  readonly url: string
  /** Runs one statement on the test database (not the admin one). */
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<Row[]>
  /** Makes the database unreachable: refuses new connections and ends the open ones. */
  blockConnections(): Promise<void>
  allowConnections(): Promise<void>
  /** Drops the database, ending any connection still open. Safe to call twice. */
  drop(): Promise<void>
}

/** A fresh, empty PostgreSQL database on the server of TEST_DATABASE_URL. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) throw new Error('createTestDatabase needs TEST_DATABASE_URL (a PostgreSQL URL)')
  const { name, url, admin, drop } = await createPostgresDatabase(adminUrl, 'lingua_test')
  return {
    name,
    url,
    async query<Row extends pg.QueryResultRow>(text: string, values?: unknown[]) {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        return (await client.query<Row>(text, values)).rows
      } finally {
        await client.end()
      }
    },
    async blockConnections() {
      await admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`)
      await admin(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
      )
    },
    allowConnections: async () => {
      await admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`)
    },
    drop,
  }
}
