import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestDatabase, databaseTargets, type TestDatabase } from '../helpers/database'
import { startServer } from '../helpers/server'

const cefrCodes = ['A1', 'A2', 'B1', 'B2', 'C1', 'C2']
const levelCodes = 'select code from language_level order by position'
/** The seeded can-do statements per level, in level order. */
const statementCounts =
  "select l.code || ' ' || count(s.id) as code from language_level l left join can_do_statement s on s.level_id = l.id group by l.code, l.position order by l.position"

/** One database that outlives the servers started on it, and a way to look inside between them. */
interface Store {
  env: Record<string, string>
  codes(query?: string): Promise<string[]>
  deleteLevel(code: string): Promise<void>
  remove(): Promise<void>
}

async function createStore(target: 'pglite' | 'postgres'): Promise<Store> {
  if (target === 'postgres') {
    const database: TestDatabase = await createTestDatabase()
    return {
      env: { DATABASE_URL: database.url },
      codes: async (query = levelCodes) =>
        (await database.query<{ code: string }>(query)).map((row) => row.code),
      deleteLevel: async (code) => {
        await database.query('delete from language_level where code = $1', [code])
      },
      remove: () => database.drop(),
    }
  }
  // One process per PGlite folder: the test opens it only while no server runs.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'lingua-data-'))
  const withPglite = async <T>(use: (db: PGlite) => Promise<T>) => {
    const db = await PGlite.create(path.join(dataDir, 'pglite'), { extensions: { pg_trgm } })
    try {
      return await use(db)
    } finally {
      await db.close()
    }
  }
  return {
    env: { DATA_DIR: dataDir },
    codes: (query = levelCodes) =>
      withPglite(async (db) =>
        (await db.query<{ code: string }>(query)).rows.map((r) => r.code),
      ),
    deleteLevel: (code) =>
      withPglite(async (db) => {
        await db.query('delete from language_level where code = $1', [code])
      }),
    remove: () => rm(dataDir, { recursive: true, force: true }),
  }
}

describe.each(databaseTargets())('migrations on %s', (target) => {
  let store: Store | undefined
  afterEach(async () => {
    await store?.remove()
    store = undefined
  })

  // Two starts in one test, the first on a fresh PGlite folder (initdb): more than the default time.
  it(
    'seeds the six CEFR levels and their can-do statements on first start, and a restart does not seed them again',
    { timeout: 120_000 },
    async () => {
      store = await createStore(target)

      await (await startServer({ env: store.env })).stop()
      expect(await store.codes()).toEqual(cefrCodes)
      // Three statements for each of the five skills of each level.
      expect(await store.codes(statementCounts)).toEqual(cefrCodes.map((code) => `${code} 15`))

      // A level deleted by an administrator must not come back with the next start.
      await store.deleteLevel('C2')
      const restarted = await startServer({ env: store.env })
      expect((await restarted.stop()).code).toBe(0)
      expect(await store.codes()).toEqual(cefrCodes.slice(0, 5))
      // Its statements went with it, and did not come back either.
      expect(await store.codes(statementCounts)).toEqual(cefrCodes.slice(0, 5).map((code) => `${code} 15`))
    },
  )
})

describe.runIf(databaseTargets().includes('postgres'))('migrations with several instances', () => {
  it(
    'two servers starting at once on a fresh database both become ready and seed once',
    { timeout: 60_000 },
    async () => {
      const database = await createTestDatabase()
      try {
        const env = { DATABASE_URL: database.url }
        const servers = await Promise.all([startServer({ env }), startServer({ env })])
        for (const server of servers) {
          expect(await (await fetch(`${server.url}/api/ready`)).json()).toEqual({
            status: 'ready',
            database: 'postgres',
          })
        }
        const rows = await database.query<{ code: string }>(levelCodes)
        expect(rows.map((row) => row.code)).toEqual(cefrCodes)
        await Promise.all(servers.map((server) => server.stop()))
      } finally {
        await database.drop()
      }
    },
  )
})
