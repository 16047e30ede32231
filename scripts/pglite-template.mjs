// Part of `npm run build`: a PGlite database folder with this build's migrations applied, beside
// the server bundle. initdb in WebAssembly takes about 4 s; the server copies this folder into a
// new DATA_DIR instead (and still runs migrations, which then have nothing to do), so even the very
// first `npm start` is ready about as fast as a restart.
import { rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'

const out = path.resolve(import.meta.dirname, '../dist/server/pglite-template')
const building = `${out}.building`
await rm(building, { recursive: true, force: true })
const db = await PGlite.create(building, { extensions: { pg_trgm } })
await migrate(drizzle({ client: db }), {
  migrationsFolder: path.resolve(import.meta.dirname, '../drizzle'),
})
await db.close()
await rm(out, { recursive: true, force: true })
await rename(building, out)
console.log(`PGlite template: ${path.relative(process.cwd(), out)}`)
