// The build `npm start` and `npm run cli` run from: made, or made again when the sources are newer.
// A production copy (dist/ and production dependencies, no sources) runs what it was given.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

export const root = path.resolve(import.meta.dirname, '..')
const outputs = ['dist/client/index.html', 'dist/ssr/entry-server.js', 'dist/server/main.js', 'dist/server/cli.js'].map((f) => path.join(root, f))
const inputs = ['src', 'public', 'drizzle', 'index.html', 'package-lock.json', 'vite.config.ts', 'vite.server.config.ts']

function newest(target) {
  const stat = statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(target).reduce((max, name) => Math.max(max, newest(path.join(target, name))), 0)
}

/** Builds when the build is missing or older than the sources; exits when the build fails. */
export function ensureBuilt() {
  if (!existsSync(path.join(root, 'src'))) return
  const built = outputs.every((file) => existsSync(file))
  const builtAt = built ? Math.min(...outputs.map((file) => statSync(file).mtimeMs)) : 0
  const sourcesAt = Math.max(...inputs.map((f) => path.join(root, f)).filter(existsSync).map(newest))
  if (built && sourcesAt <= builtAt) return
  console.error(built ? 'Sources changed since the last build: building…' : 'Building the app…')
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', process.stderr, 'inherit'] })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
