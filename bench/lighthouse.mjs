// Lighthouse performance and accessibility scores of the public pages and of `/dashboard` for a
// visitor, with the mobile (default) and desktop (lighthouse/core/config/desktop-config.js)
// configurations, in Debian's Chromium (CHROME_PATH, default /usr/bin/chromium) started by
// chrome-launcher, against a server this script starts on a fresh DATA_DIR. Targets: performance
// ≥ 99 on mobile and 100 on desktop, mobile first contentful paint ≤ 1.2 s, no layout shift,
// accessibility 100.
//
//   node bench/lighthouse.mjs [--pages=/,/about,/login,/register,/dashboard] [--runs=3] [--form-factors=mobile,desktop] [--out=DIR]
//
// --runs=N (default 3) runs Lighthouse N times per page and form factor (a fresh Chrome each time)
// and reports each figure as the median of the runs' (the score, FCP, LCP, TBT, CLS, Speed Index,
// accessibility), with every run's score and FCP. --out=DIR writes the full report (JSON and HTML)
// of the run with the median performance score (the lower middle one for an even N) there.
// Needs the devDependencies lighthouse and chrome-launcher.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  assertBuildUnchanged,
  chromeFlags,
  chromePath,
  median,
  parseArgs,
  printBusyNote,
  printEnvironment,
  printSummary,
  printTable,
  round,
  verdict,
  withServer,
} from './lib.mjs'

async function load(specifier) {
  try {
    return await import(specifier)
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND') {
      console.error(
        `Cannot load "${specifier}": add the devDependencies with \`npm i -D -E lighthouse@12.8.2 chrome-launcher@1.2.1\`.`,
      )
      process.exit(2)
    }
    throw error
  }
}

const { default: lighthouse, generateReport } = await load('lighthouse')
const chromeLauncher = await load('chrome-launcher')
const { default: desktopConfig } = await load('lighthouse/core/config/desktop-config.js')

const args = parseArgs()
const pages = args.pages ? String(args.pages).split(',') : ['/', '/about', '/login', '/register', '/dashboard']
const runs = Math.max(1, Number(args.runs ?? 3))
const formFactors = args['form-factors'] ? String(args['form-factors']).split(',') : ['mobile', 'desktop']
const outDir = args.out ? path.resolve(String(args.out)) : undefined
const configs = { mobile: undefined, desktop: desktopConfig }
const targets = { performance: { mobile: 99, desktop: 100 }, mobileFcpMs: 1200, cls: 0, accessibility: 100 }

process.env.CHROME_PATH = chromePath
const lighthouseFlags = ['--headless=new', ...chromeFlags]

/** One Lighthouse run; a run that fails (NO_FCP and the like, seen on a loaded machine) is retried twice. */
async function runOnce(server, url, formFactor) {
  let lastError
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      return await runLighthouse(url, formFactor)
    } catch (error) {
      assertBuildUnchanged(server)
      lastError = error
      const probe = await fetch(url, { signal: AbortSignal.timeout(5000) }).then(
        (response) => `the page answers ${response.status} to a plain GET`,
        (fetchError) => `a plain GET fails too: ${fetchError.cause?.code ?? fetchError.message}`,
      )
      console.warn(`  attempt ${attempt} failed (${probe}): ${error.message}`)
    }
  }
  throw lastError
}

async function runLighthouse(url, formFactor) {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: lighthouseFlags, logLevel: 'silent' })
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] },
      configs[formFactor],
    )
    if (!result?.lhr) throw new Error(`Lighthouse returned no result for ${url}`)
    if (result.lhr.runtimeError) {
      throw new Error(`Lighthouse failed on ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`)
    }
    return result.lhr
  } finally {
    await chrome.kill()
  }
}

const score = (lhr, category) => {
  const value = lhr.categories[category]?.score
  return typeof value === 'number' ? Math.round(value * 100) : null
}
const metric = (lhr, id) => lhr.audits[id]?.numericValue

/** The run with the median performance score (the lower middle one for an even count). */
function medianRun(lhrs) {
  const sorted = [...lhrs].sort((a, b) => (score(a, 'performance') ?? 0) - (score(b, 'performance') ?? 0))
  return sorted[Math.floor((sorted.length - 1) / 2)]
}

printEnvironment({ chromium: chromePath, runs })

const rows = await withServer({}, async (server) => {
  console.log(`server: ${server.url}\n`)
  if (outDir) await mkdir(outDir, { recursive: true })
  const measured = []
  for (const formFactor of formFactors) {
    for (const page of pages) {
      const lhrs = []
      for (let i = 0; i < runs; i++) lhrs.push(await runOnce(server, server.url + page, formFactor))
      const lhr = medianRun(lhrs)
      // Each target is judged on its own median over the runs (of 3 runs on a quiet machine).
      const medianOf = (values, digits) => round(median(values), digits)
      const metricRuns = (id) => lhrs.map((one) => metric(one, id))
      const performanceRuns = lhrs.map((one) => score(one, 'performance'))
      const fcpRuns = metricRuns('first-contentful-paint')
      const row = {
        formFactor,
        page,
        performance: medianOf(performanceRuns, 0),
        accessibility: medianOf(lhrs.map((one) => score(one, 'accessibility')), 0),
        fcpMs: medianOf(fcpRuns, 0),
        lcpMs: medianOf(metricRuns('largest-contentful-paint'), 0),
        tbtMs: medianOf(metricRuns('total-blocking-time'), 0),
        cls: medianOf(metricRuns('cumulative-layout-shift'), 3),
        speedIndexMs: medianOf(metricRuns('speed-index'), 0),
        performanceRuns,
        fcpRunsMs: fcpRuns.map((ms) => round(ms, 0)),
        failedA11y: Object.values(lhr.audits)
          .filter((audit) => lhr.categories.accessibility.auditRefs.some((ref) => ref.id === audit.id && ref.weight > 0))
          .filter((audit) => audit.score !== null && audit.score < 1)
          .map((audit) => audit.id),
        warnings: lhr.runWarnings ?? [],
      }
      measured.push(row)
      const name = `${formFactor}${page === '/' ? '-home' : page.replaceAll('/', '-')}`
      if (outDir) {
        await writeFile(path.join(outDir, `${name}.json`), JSON.stringify(lhr))
        await writeFile(path.join(outDir, `${name}.html`), generateReport(lhr, 'html'))
      }
      console.log(
        `${formFactor.padEnd(7)} ${page.padEnd(8)} performance ${row.performance}${runs > 1 ? ` (runs: ${row.performanceRuns.join(', ')})` : ''}, FCP ${row.fcpMs} ms${runs > 1 ? ` (runs: ${row.fcpRunsMs.join(', ')})` : ''}, accessibility ${row.accessibility}`,
      )
    }
  }
  return measured
})

/** Each row's checks: performance (per form factor), FCP (mobile), CLS and accessibility. */
const checksOf = (r) => ({
  performance: r.performance >= targets.performance[r.formFactor],
  fcp: r.formFactor !== 'mobile' || r.fcpMs <= targets.mobileFcpMs,
  cls: r.cls <= targets.cls,
  accessibility: r.accessibility >= targets.accessibility,
})

console.log('')
printTable(
  rows.map((r) => {
    const ok = checksOf(r)
    return {
      ...r,
      perfVerdict: verdict(ok.performance),
      fcpVerdict: r.formFactor === 'mobile' ? verdict(ok.fcp) : '',
      clsVerdict: verdict(ok.cls),
      // A score of rules met, not a timing: judged on a busy machine too.
      a11yVerdict: verdict(ok.accessibility, { timed: false }),
    }
  }),
  [
    { key: 'formFactor', label: 'form factor', align: 'left' },
    { key: 'page', label: 'page', align: 'left' },
    { key: 'performance', label: 'perf', align: 'right' },
    { key: 'perfVerdict', label: `≥${targets.performance.mobile} mobile, ${targets.performance.desktop} desktop`, align: 'left' },
    { key: 'fcpMs', label: 'FCP ms', align: 'right' },
    { key: 'fcpVerdict', label: `≤${targets.mobileFcpMs} (mobile)`, align: 'left' },
    { key: 'cls', label: 'CLS', align: 'right' },
    { key: 'clsVerdict', label: `=${targets.cls}`, align: 'left' },
    { key: 'accessibility', label: 'a11y', align: 'right' },
    { key: 'a11yVerdict', label: `=${targets.accessibility}`, align: 'left' },
    { key: 'lcpMs', label: 'LCP ms', align: 'right' },
    { key: 'tbtMs', label: 'TBT ms', align: 'right' },
    { key: 'speedIndexMs', label: 'SI ms', align: 'right' },
  ],
)

for (const r of rows) {
  if (r.failedA11y.length > 0) console.log(`accessibility audits failing on ${r.formFactor} ${r.page}: ${r.failedA11y.join(', ')}`)
  for (const warning of r.warnings) console.log(`warning on ${r.formFactor} ${r.page}: ${warning}`)
}

const pass = Object.fromEntries(
  ['performance', 'fcp', 'cls', 'accessibility'].map((key) => [key, rows.every((r) => checksOf(r)[key])]),
)
const listed = (pick) => rows.map((r) => `${r.formFactor} ${r.page} ${pick(r)}`).join(', ') || 'not run'
console.log(`\n${verdict(pass.performance)}: performance ≥ ${targets.performance.mobile} on mobile, ${targets.performance.desktop} on desktop (${listed((r) => r.performance)})`)
console.log(`${verdict(pass.fcp)}: mobile FCP ≤ ${targets.mobileFcpMs} ms (${listed((r) => r.fcpMs)})`)
console.log(`${verdict(pass.cls)}: CLS ${targets.cls} (${listed((r) => r.cls)})`)
console.log(`${verdict(pass.accessibility, { timed: false })}: accessibility ${targets.accessibility} (${listed((r) => r.accessibility)})`)
printBusyNote()

printSummary('lighthouse', {
  runs,
  targets,
  pass,
  results: rows.map(({ warnings: _warnings, ...r }) => r),
})
