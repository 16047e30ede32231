// `npm start`: builds the app when the build is missing or older than the sources, then serves
// app + API on PORT (default 3000). Migrations run as the server starts.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const outputs = ['dist/client/index.html', 'dist/server/main.js'].map((f) => path.join(root, f))
const inputs = ['src', 'public', 'drizzle', 'index.html', 'package-lock.json', 'vite.config.ts', 'vite.server.config.ts']

function newest(target) {
  const stat = statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(target).reduce((max, name) => Math.max(max, newest(path.join(target, name))), 0)
}

const built = outputs.every((file) => existsSync(file))
const builtAt = built ? Math.min(...outputs.map((file) => statSync(file).mtimeMs)) : 0
const sourcesAt = Math.max(...inputs.map((f) => path.join(root, f)).filter(existsSync).map(newest))

if (!built || sourcesAt > builtAt) {
  console.log(built ? 'Sources changed since the last build: building…' : 'Building the app…')
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

process.env.NODE_ENV ??= 'production'
await import(path.join(root, 'dist/server/main.js'))
