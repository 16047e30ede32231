// Bundle size of a first visit: for each page, a fresh browser context (empty cache) loads it in
// Chromium, waits for network idle and sums the JS and CSS responses it loaded, as gzip -9 of each
// body (computed here, so it does not depend on how the server compresses) and as transferred bytes
// (headers + body as sent on the wire). Target: ≤ 125 KB (125,000 bytes) gzip for a first page.
//
//   node bench/bundle-size.mjs [--pages=/,/login,/about] [--budget=125] [--quiet]
import { gzipSync } from 'node:zlib'
import {
  chromePath,
  desktopUserAgent,
  kb,
  launchChromium,
  parseArgs,
  printEnvironment,
  printSummary,
  printTable,
  verdict,
  withServer,
} from './lib.mjs'

const args = parseArgs()
const pages = args.pages ? String(args.pages).split(',') : ['/', '/login', '/about']
const budgetKb = Number(args.budget ?? 125)
const budgetBytes = budgetKb * 1000

function kindOf(response) {
  const type = (response.headers()['content-type'] ?? '').toLowerCase()
  const resource = response.request().resourceType()
  if (type.includes('javascript') || resource === 'script') return 'js'
  if (type.includes('text/css') || resource === 'stylesheet') return 'css'
  return undefined
}

async function measurePage(browser, userAgent, baseUrl, pagePath) {
  const context = await browser.newContext({
    userAgent,
    viewport: { width: 1366, height: 900 },
    deviceScaleFactor: 1,
    locale: 'en-US',
  })
  const page = await context.newPage()
  const pending = []
  page.on('response', (response) => {
    const kind = kindOf(response)
    if (!kind) return
    pending.push(
      (async () => {
        const body = await response.body()
        const sizes = await response.request().sizes()
        const url = new URL(response.url())
        return {
          kind,
          file: url.origin === baseUrl ? url.pathname : url.href,
          status: response.status(),
          encoding: response.headers()['content-encoding'] ?? 'identity',
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          transferred: sizes.responseHeadersSize + sizes.responseBodySize,
        }
      })(),
    )
  })
  const response = await page.goto(baseUrl + pagePath, { waitUntil: 'networkidle', timeout: 60_000 })
  const files = await Promise.all(pending)
  const finalPath = new URL(page.url()).pathname
  await context.close()

  files.sort((a, b) => a.kind.localeCompare(b.kind) || b.gzip - a.gzip)
  const sum = (list, key) => list.reduce((total, f) => total + f[key], 0)
  const js = files.filter((f) => f.kind === 'js')
  const css = files.filter((f) => f.kind === 'css')
  return {
    page: pagePath,
    finalPath,
    documentStatus: response?.status() ?? 0,
    files,
    count: files.length,
    jsGzip: sum(js, 'gzip'),
    cssGzip: sum(css, 'gzip'),
    gzip: sum(files, 'gzip'),
    raw: sum(files, 'raw'),
    transferred: sum(files, 'transferred'),
  }
}

printEnvironment({ chromium: chromePath, budget: `${budgetKb} KB gzip (1 KB = 1000 B)` })

const results = await withServer({}, async (server) => {
  const browser = await launchChromium({ headless: true })
  try {
    const userAgent = desktopUserAgent(browser.version())
    console.log(`server: ${server.url} | browser: Chromium ${browser.version()}\n`)
    const measured = []
    for (const pagePath of pages) measured.push(await measurePage(browser, userAgent, server.url, pagePath))
    return measured
  } finally {
    await browser.close()
  }
})

if (!args.quiet) {
  for (const result of results) {
    const redirected = result.finalPath !== result.page ? ` → ${result.finalPath}` : ''
    console.log(`${result.page}${redirected} (document ${result.documentStatus}): ${result.count} JS/CSS files`)
    printTable(
      result.files.map((f) => ({
        file: f.file,
        kind: f.kind,
        raw: kb(f.raw, 2),
        gzip: kb(f.gzip, 2),
        transferred: kb(f.transferred, 2),
        encoding: f.encoding,
      })),
      [
        { key: 'file', label: 'file', align: 'left' },
        { key: 'kind', label: 'type', align: 'left' },
        { key: 'raw', label: 'raw KB', align: 'right' },
        { key: 'gzip', label: 'gzip-9 KB', align: 'right' },
        { key: 'transferred', label: 'transferred KB', align: 'right' },
        { key: 'encoding', label: 'served as', align: 'left' },
      ],
    )
    console.log('')
  }
}

console.log(`First-visit JS + CSS per page (target ≤ ${budgetKb} KB gzip):`)
printTable(
  results.map((r) => ({
    page: r.page,
    files: r.count,
    js: kb(r.jsGzip),
    css: kb(r.cssGzip),
    gzip: kb(r.gzip),
    raw: kb(r.raw),
    transferred: kb(r.transferred),
    verdict: verdict(r.gzip <= budgetBytes),
  })),
  [
    { key: 'page', label: 'page', align: 'left' },
    { key: 'files', label: 'files', align: 'right' },
    { key: 'js', label: 'JS gzip KB', align: 'right' },
    { key: 'css', label: 'CSS gzip KB', align: 'right' },
    { key: 'gzip', label: 'total gzip KB', align: 'right' },
    { key: 'raw', label: 'raw KB', align: 'right' },
    { key: 'transferred', label: 'transferred KB', align: 'right' },
    { key: 'verdict', label: `≤ ${budgetKb} KB`, align: 'left' },
  ],
)

const first = results[0]
console.log(
  `\n${verdict(first.gzip <= budgetBytes)}: first page ${first.page} loads ${kb(first.gzip)} KB gzip of JS + CSS (target ≤ ${budgetKb} KB, ${first.gzip <= budgetBytes ? `${kb(budgetBytes - first.gzip)} KB to spare` : `${kb(first.gzip - budgetBytes)} KB over`})`,
)

printSummary('bundle-size', {
  budgetKb,
  pass: first.gzip <= budgetBytes,
  pages: Object.fromEntries(
    results.map((r) => [
      r.page,
      {
        files: r.count,
        jsGzipBytes: r.jsGzip,
        cssGzipBytes: r.cssGzip,
        gzipBytes: r.gzip,
        rawBytes: r.raw,
        transferredBytes: r.transferred,
        pass: r.gzip <= budgetBytes,
      },
    ]),
  ),
})
