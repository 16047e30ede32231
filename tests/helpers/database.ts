import { randomBytes } from 'node:crypto'
import pg from 'pg'

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

  const name = `lingua_test_${randomBytes(6).toString('hex')}`
  const quoted = `"${name}"`
  const url = new URL(adminUrl)
  url.pathname = `/${name}`

  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    try {
      await client.query(text)
    } finally {
      await client.end()
    }
  }

  await admin(`CREATE DATABASE ${quoted}`)

  return {
    name,
    url: url.toString(),
    async query<Row extends pg.QueryResultRow>(text: string, values?: unknown[]) {
      const client = new pg.Client({ connectionString: url.toString() })
      await client.connect()
      try {
        return (await client.query<Row>(text, values)).rows
      } finally {
        await client.end()
      }
    },
    async blockConnections() {
      await admin(`ALTER DATABASE ${quoted} ALLOW_CONNECTIONS false`)
      await admin(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
      )
    },
    allowConnections: () => admin(`ALTER DATABASE ${quoted} ALLOW_CONNECTIONS true`),
    drop: () => admin(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`),
  }
}
