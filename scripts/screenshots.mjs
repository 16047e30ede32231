// The README's screenshots, taken from the running app: `npm run screenshots` (after `npm run build`).
//
// Starts the built server on a fresh PGlite folder with one administrator and one learner (signed up
// and confirmed through the emailed link, read from the outbox), then opens each page in Chromium in
// light and dark mode and saves docs/screenshots/{page}-{mode}.png. The pages are the ones
// SCREENSHOTS lists; tests/unit/screenshots.test.ts checks that each file exists and that the
// README shows it.
//
//   node scripts/screenshots.mjs [--width=1280] [--height=800] [--out=docs/screenshots]
//
// To look the whole app over instead: every route, at each width, in each language and mode, into
// a folder of your choice (`{page}-{width}-{language}-{mode}.png`, the whole page):
//
//   node scripts/screenshots.mjs --all --widths=360,1440 --languages=en,ru --out=/tmp/review
//
// `--only=decks,deck` takes only the pages of those names.
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { appRequest, parseArgs, registerAndVerify, withServer } from '../bench/lib.mjs'
import { desktopUserAgent, launchChromium } from './chromium.mjs'
import { freePort, projectRoot } from './lib/server.mjs'
import { ALL_PAGES, SCREENSHOT_MODES, SCREENSHOTS } from './screenshot-list.mjs'

const args = parseArgs()
const review = Boolean(args.all)
const height = Number(args.height ?? 800)
const widths = String(args.widths ?? args.width ?? 1280).split(',').map(Number)
const languages = String(args.languages ?? 'en').split(',')
const only = args.only ? new Set(String(args.only).split(',')) : null
const pages = (review ? ALL_PAGES : SCREENSHOTS).filter((shot) => !only || only.has(shot.name))
const outDir = path.resolve(projectRoot, String(args.out ?? 'docs/screenshots'))
if (review && !args.out) throw new Error('--all needs --out: the review shots are not for the repository')

const admin = { name: 'Ada Lovelace', email: 'ada@lingua.example', password: 'correct horse battery staple 42' }
const learner = { name: 'Grace Hopper', email: 'grace@lingua.example', password: 'correct horse battery staple 43' }

await mkdir(outDir, { recursive: true })

const port = await freePort()
// APP_URL: in production better-auth accepts only its own origin's sign-ups.
const env = {
  ADMIN_EMAILS: admin.email,
  APP_URL: `http://127.0.0.1:${port}`,
  // Another build of the client than dist/client, if given.
  ...(process.env.CLIENT_DIR ? { CLIENT_DIR: path.resolve(process.env.CLIENT_DIR) } : {}),
}
await withServer({ env, port }, async (server) => {
  const sessions = {
    visitor: {},
    admin: await registerAndVerify(server, admin),
    learner: await registerAndVerify(server, learner),
  }
  const { json: levels } = await appRequest(server, 'GET', '/api/language-levels?sort=position')
  const byCode = Object.fromEntries(levels.items.map((level) => [level.code, level]))
  // The learner of English is on the way from A2 to C1: the dashboard shows a profile and the
  // progress, and practice has the starter words of A2.
  await appRequest(server, 'PUT', '/api/me/profile', {
    body: { language: 'en', currentLevelId: byCode.A2.id, targetLevelId: byCode.C1.id },
    cookies: sessions.learner,
  })
  const paths = { level: `/admin/language-levels/${byCode.B1.id}` }
  if (review) {
    // The learner's own deck (not in the daily practice, so the practice page stays as it is), with words.
    const { json: deck } = await appRequest(server, 'POST', '/api/me/decks', {
      body: { name: 'Kitchen Spanish', language: 'es', description: 'Words to cook with, from the recipes I like.', practiseDaily: false },
      cookies: sessions.learner,
    })
    const words = [
      { text: 'la cuchara', translationEn: 'spoon', translationRu: 'ложка', tags: ['kitchen'], reversed: true },
      { text: 'el tenedor', translationEn: 'fork', translationRu: 'вилка', tags: ['kitchen', 'table'], reversed: false },
      { text: 'hervir', translationEn: 'to boil', example: 'Hay que hervir el agua.', partOfSpeech: 'verb', tags: [], reversed: false },
    ]
    for (const word of words) await appRequest(server, 'POST', `/api/me/decks/${deck.id}/words`, { body: word, cookies: sessions.learner })
    paths.deck = `/decks/${deck.id}`
  }

  const browser = await launchChromium()
  try {
    const variants = widths.flatMap((width) =>
      languages.flatMap((language) => SCREENSHOT_MODES.map((mode) => ({ width, language, mode }))),
    )
    for (const { width, language, mode } of variants) {
      for (const shot of pages) {
        const context = await browser.newContext({
          viewport: { width, height },
          colorScheme: mode,
          locale: language,
          reducedMotion: 'reduce',
          userAgent: desktopUserAgent(),
        })
        await context.addInitScript(
          ([theme, lang]) => {
            localStorage.setItem('lingua.theme', theme)
            localStorage.setItem('lingua.lang', lang)
          },
          [mode, language],
        )
        const { hostname } = new URL(server.url)
        await context.addCookies(
          Object.entries(sessions[shot.as]).map(([name, value]) => ({ name, value, domain: hostname, path: '/' })),
        )
        const page = await context.newPage()
        const response = await page.goto(server.url + (paths[shot.name] ?? shot.path))
        if (response?.status() !== (shot.status ?? 200)) throw new Error(`${shot.path} answered ${response?.status()}`)
        await page.getByRole('heading', { level: 1 }).first().waitFor()
        // The app has taken the page over, its data loaded (no skeleton left), fonts drawn. Not
        // `networkidle`: the live event stream (/api/events) stays open as long as the page.
        await page.waitForSelector('html[data-app="started"]', { state: 'attached' })
        // A signed-in person's menu is a chunk of its own, which may come after the page's data.
        const person = { admin, learner }[shot.as]
        if (person) await page.locator('header button', { hasText: person.name }).first().waitFor({ state: 'attached' })
        // (These run in the page: `globalThis` is its window.)
        await page.waitForFunction(() => !globalThis.document.querySelector('.animate-pulse'), null, {
          timeout: 10_000,
        })
        await page.evaluate(() => globalThis.document.fonts.ready)
        if (!page.url().endsWith(paths[shot.name] ?? shot.path)) {
          throw new Error(`${shot.path} as ${shot.as} went to ${page.url()}`)
        }
        const file = path.join(outDir, review ? `${shot.name}-${width}-${language}-${mode}.png` : `${shot.name}-${mode}.png`)
        await page.screenshot({ path: file, fullPage: review })
        console.log(path.relative(projectRoot, file))
        await context.close()
      }
    }
  } finally {
    await browser.close()
  }
})
