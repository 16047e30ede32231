import { existsSync } from 'node:fs'
import { copyFile, mkdir, readdir } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { migrationsFolder, pgliteTemplate } from '@/server/paths'
import type { Database, Db } from './client'
import { lockFolder } from './folder-lock'
import * as schema from './schema'

export async function openPglite(dataDir: string): Promise<Database> {
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
