import { readFileSync } from 'node:fs'
import path from 'node:path'
import { projectRoot } from './paths'

/** What package.json says of the app: its version, and the Node it needs (`engines.node`). */
export const packageInfo = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
  version: string
  engines: { node: string }
}

/**
 * Stops the process with one line when this Node is older than `engines.node` (">=24") asks: the
 * server and the CLI run as `node dist/server/…` in production, where no npm script checked it
 * (`scripts/node-version.mjs` does for `npm start` and `npm test`).
 */
export function refuseOldNode(): void {
  const required = Number(/\d+/.exec(packageInfo.engines.node)?.[0])
  const major = Number(process.versions.node.split('.')[0])
  if (major >= required) return
  console.error(
    `Lingua needs Node ${required} or later (package.json engines); this is Node ${process.versions.node}. See docs/operations.md.`,
  )
  process.exit(1)
}
