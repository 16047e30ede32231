// `npm run cli -- admin …`: the administrator CLI as it is built (dist/server/cli.js), built first
// when the sources changed, so that development and a production copy run the same code.
import path from 'node:path'
import { ensureBuilt, root } from './built.mjs'

ensureBuilt()
await import(path.join(root, 'dist/server/cli.js'))
