// Writes THIRD-PARTY-NOTICES.md: the packages Lingua ships (its production dependencies, the ones
// `npm ci --omit=dev` installs and the client bundle is built from) under a licence other than
// Lingua's own MIT, with their licence and notice files. Read from package-lock.json, so the list
// is the same on every machine; a package built for one platform (sharp's libvips, os/cpu in the
// lock) (and any optional package) is listed without its text, which is in the package itself: another machine does
// not have it installed. `--check` fails when the committed file is not what this writes
// (`npm run lint`), so a new dependency cannot ship unlisted.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const root = path.join(import.meta.dirname, '..')
const target = path.join(root, 'THIRD-PARTY-NOTICES.md')
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'))

const shipped = Object.entries(lock.packages)
  .filter(([where, entry]) => where && !entry.dev && !entry.devOptional && entry.license !== 'MIT')
  .map(([where, entry]) => ({
    where,
    name: where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length),
    version: entry.version,
    license: entry.license ?? 'UNKNOWN',
    platform: Boolean(entry.os || entry.cpu || entry.optional),
  }))
  .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version))

/** The package's licence and notice files, as its authors wrote them. */
function texts(where) {
  const folder = path.join(root, where)
  if (!existsSync(folder)) throw new Error(`${where} is not installed: run npm ci first`)
  return readdirSync(folder)
    .filter((file) => /^(licen[cs]e|notice|copying)(\.(md|txt))?$/i.test(file))
    .sort()
    .map((file) => readFileSync(path.join(folder, file), 'utf8').trim())
}

const lines = [
  '# Third-party notices',
  '',
  'Lingua is under the MIT licence (`LICENSE`). It ships these packages, which are under other',
  'licences (written by `node scripts/third-party-notices.mjs` from `package-lock.json`; the',
  'production dependencies only). Packages under MIT are not listed: their notices are in their',
  'own folders under `node_modules/`.',
  '',
  '| Package | Version | Licence |',
  '| --- | --- | --- |',
  ...shipped.map((p) => `| ${p.name} | ${p.version} | ${p.license} |`),
  '',
]
for (const p of shipped) {
  lines.push(`## ${p.name} ${p.version} (${p.license})`, '')
  if (p.platform) {
    lines.push('An optional package (a build for one platform), installed only where it runs: its licence files are in the package.', '')
    continue
  }
  const found = texts(p.where)
  if (found.length === 0) lines.push(`The package holds no licence file; its package.json says ${p.license}.`, '')
  for (const text of found) lines.push('```text', text.replaceAll('```', "'''"), '```', '')
}
const written = lines.join('\n')

if (process.argv.includes('--check')) {
  const committed = existsSync(target) ? readFileSync(target, 'utf8') : ''
  if (committed !== written) {
    console.error('THIRD-PARTY-NOTICES.md is out of date: run `node scripts/third-party-notices.mjs` and commit it.')
    process.exit(1)
  }
} else {
  writeFileSync(target, written)
  console.log(`THIRD-PARTY-NOTICES.md: ${shipped.length} packages`)
}
