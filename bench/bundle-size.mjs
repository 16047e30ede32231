// Bundle size of a first visit: for each page, a fresh browser context (empty cache) loads it in
// Chromium, waits for the app to start and a second more, and sums the JS and CSS responses it loaded, as gzip -9 of each
// body (computed here, so it does not depend on how the server compresses) and as transferred bytes
// (headers + body as sent on the wire), with the CSS and scripts inline in the document. Targets
// (docs/decisions/0029): ≤ 150 KB (150,000 bytes) gzip for a visitor's first visit, ≤ 130 KB for the
// visitors' first pages (`/` and `/about`), ≤ 175 KB for a signed-in person's (a learner's or an
// administrator's page: a form and server data at once, on the kept form, query and table libraries).
//
// The pages are every route of the route table (src/shared/routes.ts), each as the person it is
// for: a guarded route as a signed-in learner (`auth`) or administrator (`admin`), the others as a
// visitor; `$id` is the first level (the learner's deck on `/decks/$id`), `$userId` the learner. Then
// the 404 screen.
//
//   node bench/bundle-size.mjs [--pages=/,/login,/about] [--budget=150] [--front-budget=130] [--signed-in-budget=175] [--quiet]
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import {
  chromePath,
  desktopUserAgent,
  kb,
  appRequest,
  freePort,
  launchChromium,
  parseArgs,
  projectRoot,
  registerAndVerify,
  printEnvironment,
  printSummary,
  printTable,
  verdict,
  withServer,
} from './lib.mjs'

const args = parseArgs()

/** The route table's paths and who each is for, read from its source (one table for client and server). */
function routesOfTheApp() {
  const source = readFileSync(path.join(projectRoot, 'src/shared/routes.ts'), 'utf8')
  const table = source.slice(source.indexOf('export const routeTable'), source.indexOf('] as const'))
  const routes = [...table.matchAll(/\{ path: '([^']+)', guards: \[([^\]]*)\] \}/g)].map(([, routePath, guards]) => ({
    path: routePath,
    as: guards.includes("'admin'") ? 'admin' : guards.includes("'auth'") ? 'learner' : 'visitor',
  }))
  if (routes.length < 10) throw new Error(`read only ${routes.length} routes from src/shared/routes.ts: has its form changed?`)
  return [...routes, { path: '/no-such-page', as: 'visitor' }]
}

const pages = args.pages
  ? String(args.pages)
      .split(',')
      .map((pagePath) => ({ path: pagePath, as: 'visitor' }))
  : routesOfTheApp()
const budgetKb = Number(args.budget ?? 150)
/** The pages most visits start on, with a tighter budget. */
const frontPages = new Set(['/', '/about'])
const frontBudgetKb = Number(args['front-budget'] ?? 130)
/** Pages for a signed-in person (guarded by `auth` or `admin`). */
const signedInBudgetKb = Number(args['signed-in-budget'] ?? 175)
const budgetOf = ({ page, as }) =>
  (frontPages.has(page) ? frontBudgetKb : as === 'visitor' ? budgetKb : signedInBudgetKb) * 1000
const budgetText = `${budgetKb} KB gzip for visitors, ${[...frontPages].join(' and ')} ≤ ${frontBudgetKb} KB, signed-in pages ≤ ${signedInBudgetKb} KB (1 KB = 1000 B)`

function kindOf(response) {
  const type = (response.headers()['content-type'] ?? '').toLowerCase()
  const resource = response.request().resourceType()
  if (type.includes('javascript') || resource === 'script') return 'js'
  if (type.includes('text/css') || resource === 'stylesheet') return 'css'
  return undefined
}

/**
 * The CSS and scripts the document carries inline (the rendered pages inline their stylesheet):
 * they are part of the first visit's JS and CSS as much as a file is. JSON data blocks are not.
 */
function inlineParts(html) {
  const parts = [
    ...[...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((match) => ({ kind: 'css', body: match[1] })),
    ...[...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
      .filter((match) => !/type="application\/json"/i.test(match[1]))
      .map((match) => ({ kind: 'js', body: match[2] })),
  ].filter((part) => part.body.trim() !== '')
  return parts.map((part, index) => {
    const body = Buffer.from(part.body)
    const gzip = gzipSync(body, { level: 9 }).length
    return {
      kind: part.kind,
      file: `(inline ${part.kind === 'css' ? '<style>' : '<script>'} ${index + 1} of the document)`,
      status: 200,
      encoding: 'in the document',
      raw: body.length,
      gzip,
      transferred: gzip,
    }
  })
}

async function measurePage(browser, userAgent, baseUrl, pagePath, cookies) {
  const context = await browser.newContext({
    userAgent,
    viewport: { width: 1366, height: 900 },
    deviceScaleFactor: 1,
    locale: 'en-US',
  })
  await context.addCookies(Object.entries(cookies).map(([name, value]) => ({ name, value, url: baseUrl })))
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
  // Not network idle: the live stream (/api/events) stays open. Loaded, the app started
  // (`data-app`), then what it loads next (a route's chunks) given a second.
  const response = await page.goto(baseUrl + pagePath, { waitUntil: 'load', timeout: 60_000 })
  await page.waitForSelector('html[data-app="started"]', { state: 'attached', timeout: 30_000 })
  await page.waitForTimeout(1000)
  const files = [...(await Promise.all(pending)), ...inlineParts(response ? await response.text() : '')]
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

printEnvironment({ chromium: chromePath, budget: budgetText })

const port = await freePort()
const results = await withServer({ port, env: { APP_URL: `http://127.0.0.1:${port}`, AUTH_RATE_LIMIT_SCALE: '100' } }, async (server) => {
  const password = 'correct horse battery staple 42'
  // The first confirmed account is the administrator.
  const cookiesOf = {
    visitor: {},
    admin: await registerAndVerify(server, { name: 'Ada Admin', email: 'ada@example.com', password }),
    learner: await registerAndVerify(server, { name: 'Lena Learner', email: 'lena@example.com', password }),
  }
  const learnerId = (await appRequest(server, 'GET', '/api/auth/get-session', { cookies: cookiesOf.learner })).json.user.id
  // The learner's deck, with a word: its page as the learner sees it, not the not-found screen.
  const deck = (await appRequest(server, 'POST', '/api/me/decks', { body: { name: 'Bench', language: 'en' }, cookies: cookiesOf.learner })).json
  await appRequest(server, 'POST', `/api/me/decks/${deck.id}/words`, {
    body: { text: 'house', translationEn: 'house', translationRu: 'дом' },
    cookies: cookiesOf.learner,
  })
  const browser = await launchChromium({ headless: true })
  try {
    const userAgent = desktopUserAgent(browser.version())
    console.log(`server: ${server.url} | browser: Chromium ${browser.version()}\n`)
    const measured = []
    for (const page of pages) {
      const pagePath = page.path.replace('$id', page.path.startsWith('/decks/') ? String(deck.id) : '1').replace('$userId', learnerId)
      const result = await measurePage(browser, userAgent, server.url, pagePath, cookiesOf[page.as])
      measured.push({ ...result, visited: pagePath, page: page.path, as: page.as })
    }
    return measured
  } finally {
    await browser.close()
  }
})

if (!args.quiet) {
  for (const result of results) {
    const redirected = result.finalPath !== result.visited ? ` → ${result.finalPath}` : ''
    console.log(`${result.visited}${redirected} as ${result.as} (document ${result.documentStatus}): ${result.count} JS/CSS files`)
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

console.log(`First-visit JS + CSS per page (targets: ${budgetText}):`)
printTable(
  results.map((r) => ({
    page: r.page,
    as: r.as,
    files: r.count,
    js: kb(r.jsGzip),
    css: kb(r.cssGzip),
    gzip: kb(r.gzip),
    raw: kb(r.raw),
    transferred: kb(r.transferred),
    budget: budgetOf(r) / 1000,
    verdict: verdict(r.gzip <= budgetOf(r), { timed: false }),
  })),
  [
    { key: 'page', label: 'page', align: 'left' },
    { key: 'as', label: 'as', align: 'left' },
    { key: 'files', label: 'files', align: 'right' },
    { key: 'js', label: 'JS gzip KB', align: 'right' },
    { key: 'css', label: 'CSS gzip KB', align: 'right' },
    { key: 'gzip', label: 'total gzip KB', align: 'right' },
    { key: 'raw', label: 'raw KB', align: 'right' },
    { key: 'transferred', label: 'transferred KB', align: 'right' },
    { key: 'budget', label: 'budget KB', align: 'right' },
    { key: 'verdict', label: '≤ budget', align: 'left' },
  ],
)

const over = results.filter((r) => r.gzip > budgetOf(r))
const heaviest = results.reduce((a, b) => (b.gzip > a.gzip ? b : a))
console.log(
  over.length === 0
    ? `\nPASS: every first visit within its budget of JS + CSS gzip (heaviest: ${heaviest.page}, ${kb(heaviest.gzip)} KB)`
    : `\nMISS: ${over.length} of ${results.length} first visits over their budget: ${over.map((r) => `${r.page} ${kb(r.gzip)} KB (≤ ${budgetOf(r) / 1000})`).join(', ')}`,
)

printSummary('bundle-size', {
  budgetKb,
  frontBudgetKb,
  signedInBudgetKb,
  pass: over.length === 0,
  pages: Object.fromEntries(
    results.map((r) => [
      r.page,
      {
        as: r.as,
        files: r.count,
        jsGzipBytes: r.jsGzip,
        cssGzipBytes: r.cssGzip,
        gzipBytes: r.gzip,
        rawBytes: r.raw,
        transferredBytes: r.transferred,
        pass: r.gzip <= budgetOf(r),
      },
    ]),
  ),
})
