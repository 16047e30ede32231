// Run before `npm start` and `npm test`: Lingua needs the Node that package.json's engines names
// (">=24"). The check is a script of its own, run before the others, so that an older Node gets
// one line, not a stack trace from a module it cannot load. This file must parse on any Node. The
// built server and CLI check the same themselves (src/server/package-info.ts).
import { readFileSync } from 'node:fs'

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const required = Number(/\d+/.exec(engines.node)[0])
const major = Number(process.versions.node.split('.')[0])
if (major < required) {
  console.error(
    `Lingua needs Node ${required} or later; this is Node ${process.versions.node}. ` +
      `Run \`npm ci\` first: it installs Node ${required} for npm's scripts (the \`node\` package), ` +
      `or install Node ${required} LTS from https://nodejs.org.`,
  )
  process.exit(1)
}
