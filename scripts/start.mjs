// `npm start`: builds the app when the build is missing or older than the sources, then serves
// app + API on PORT (default 3000). Migrations run as the server starts.
import path from 'node:path'
import { ensureBuilt, root } from './built.mjs'

ensureBuilt()
process.env.NODE_ENV ??= 'production'
await import(path.join(root, 'dist/server/main.js'))
