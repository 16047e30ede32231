// Run before `npm start` and `npm test`: Lingua needs Node 24 (engines in package.json). The check is
// a script of its own, run before the others, so that an older Node gets one line, not a stack trace
// from a module it cannot load (`node:sqlite`, `zlib`'s zstd). This file must parse on any Node.
const required = 24
const major = Number(process.versions.node.split('.')[0])
if (major < required) {
  console.error(
    `Lingua needs Node ${required} or later; this is Node ${process.versions.node}. ` +
      `Run \`npm ci\` first: it installs Node ${required} for npm's scripts (the \`node\` package), ` +
      `or install Node ${required} LTS from https://nodejs.org.`,
  )
  process.exit(1)
}
