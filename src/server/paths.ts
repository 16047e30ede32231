import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder holding package.json, found from this module (source or bundle alike). */
export const projectRoot: string = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir)
    if (parent === dir) return process.cwd()
    dir = parent
  }
  return dir
})()

export const migrationsFolder = path.join(projectRoot, 'drizzle')

/** An initialised, empty PGlite database made by `npm run build` (scripts/pglite-template.mjs). */
export const pgliteTemplate = path.join(projectRoot, 'dist/server/pglite-template')
