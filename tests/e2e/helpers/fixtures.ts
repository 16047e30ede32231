import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { AxeResults, RunOptions } from 'axe-core'
import { type ConsoleMessage, type Locator, type Page, test as base, expect } from '@playwright/test'

export { expect }

/**
 * What the browser reported while a test ran. Every test fails at the end when a page broke the
 * Content-Security-Policy, threw an uncaught error, or logged a console error the test did not
 * declare with `allowConsoleError`.
 */
export interface Diagnostics {
  readonly consoleErrors: string[]
  readonly cspViolations: string[]
  readonly pageErrors: string[]
  /** Declares console errors this test expects (e.g. the 404 of the document itself). */
  allowConsoleError(pattern: RegExp): void
  /** What would fail the test if it ended now. */
  problems(): BrowserProblems
  /** Forgets everything recorded so far (for the harness's own tests). */
  reset(): void
}

interface BrowserProblems {
  csp: string[]
  pageErrors: string[]
  unexpectedConsoleErrors: string[]
}

const cspMarker = 'Content Security Policy'

// Also reports violations Chromium does not print (report-only policies, blocked styles…) through
// the console, where the fixture listens.
const reportViolations = `
  document.addEventListener('securitypolicyviolation', (event) => {
    console.error('${cspMarker} violation: ' + event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') +
      (event.sourceFile ? ' at ' + event.sourceFile + ':' + event.lineNumber : ''))
  })
`

function describe(message: ConsoleMessage): string {
  const { url, lineNumber } = message.location()
  return url ? `${message.text()} (${url}:${lineNumber})` : message.text()
}

/**
 * A page the server rendered shows before the app has taken it over, and its controls answer only
 * once it has (`data-app="started"`): a navigation of the test (goto, reload) waits for that, as a
 * person would for the page to respond. `page.mainFrame().goto` does not (a test that keeps the
 * app from starting).
 */
async function untilStarted(page: Page) {
  await page.waitForFunction(
    () => document.documentElement.dataset.app === 'started' || !document.getElementById('lingua-state'),
    undefined,
    { timeout: 15_000 },
  )
}

export const test = base.extend<{ diagnostics: Diagnostics }>({
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled) {
      const goto = page.goto.bind(page)
      const reload = page.reload.bind(page)
      const waited = async (response: Awaited<ReturnType<Page['goto']>>) => {
        if (response?.headers()['content-type']?.startsWith('text/html')) await untilStarted(page)
        return response
      }
      page.goto = async (...args) => waited(await goto(...args))
      page.reload = async (...args) => waited(await reload(...args))
    }
    await use(page)
  },
  diagnostics: [
    async ({ context }, use, testInfo) => {
      // The live stream tries again while its server is away (a test that stops its own server
      // with the page open): Chromium reports each try that fails, and that is the app working.
      const allowed: RegExp[] = [/^Failed to load resource: .*\/api\/events:\d+\)$/]
      const diagnostics: Diagnostics = {
        consoleErrors: [],
        cspViolations: [],
        pageErrors: [],
        allowConsoleError: (pattern) => void allowed.push(pattern),
        problems: () => ({
          csp: [...diagnostics.cspViolations],
          pageErrors: [...diagnostics.pageErrors],
          unexpectedConsoleErrors: diagnostics.consoleErrors.filter((text) => !allowed.some((re) => re.test(text))),
        }),
        reset: () => {
          for (const list of [diagnostics.consoleErrors, diagnostics.cspViolations, diagnostics.pageErrors]) {
            list.length = 0
          }
        },
      }
      await context.addInitScript(reportViolations)
      context.on('console', (message) => {
        const text = describe(message)
        if (text.includes(cspMarker)) diagnostics.cspViolations.push(text)
        else if (message.type() === 'error') diagnostics.consoleErrors.push(text)
      })
      context.on('weberror', (webError) => {
        const error = webError.error()
        diagnostics.pageErrors.push(error.stack ?? `${error.name}: ${error.message}`)
      })

      await use(diagnostics)

      const report = diagnostics.problems()
      if (report.csp.length + report.pageErrors.length + report.unexpectedConsoleErrors.length > 0) {
        await testInfo.attach('browser-problems', {
          body: JSON.stringify(report, null, 2),
          contentType: 'application/json',
        })
      }
      expect(report.csp, 'Content-Security-Policy violations').toEqual([])
      expect(report.pageErrors, 'uncaught page errors').toEqual([])
      expect(report.unexpectedConsoleErrors, 'unexpected console errors').toEqual([])
    },
    { auto: true },
  ],
})

/** Chromium's line for a document or fetch that answered with this status. */
export function failedResource(status: number): RegExp {
  return new RegExp(`Failed to load resource: the server responded with a status of ${status}\\b`)
}

/** Pages a signed-out visitor can open, with the heading each shows. */
export const visitorPages = [
  { path: '/', heading: 'Learn a language level by level' },
  { path: '/about', heading: 'About Lingua' },
  { path: '/confirm', heading: 'Open the link from your email' },
  { path: '/fetching', heading: 'Fetching data' },
  { path: '/fetching-post', heading: 'Posting a form' },
  { path: '/shared-state-home', heading: 'Shared state: first page' },
  { path: '/shared-state-about', heading: 'Shared state: second page' },
  { path: '/login', heading: 'Sign in' },
  { path: '/register', heading: 'Create an account' },
] as const

/** Every route behind the `auth` or `admin` guard, as a path to open. */
export const guardedPaths = [
  '/dashboard',
  '/account',
  '/assessment',
  '/decks',
  '/decks/5',
  '/progress',
  '/create',
  '/admin/language-levels',
  '/admin/language-levels/create',
  '/admin/language-levels/5',
  '/admin/can-do',
] as const

/** Opens a path and checks the document answered as expected. */
export async function open(page: Page, path: string, status = 200) {
  const response = await page.goto(path)
  expect(response, `a response for ${path}`).not.toBeNull()
  expect(response?.status(), `HTTP status of ${path}`).toBe(status)
  return response
}

export function mainHeading(page: Page): Locator {
  return page.getByRole('main').getByRole('heading', { level: 1 })
}

/** The notifications region (Radix Toast's, named after its F8 hotkey). */
export function toasts(page: Page): Locator {
  return page.getByRole('region', { name: 'Notifications (F8)' })
}

export function mainNav(page: Page, name = 'Main'): Locator {
  return page.getByRole('banner').getByRole('navigation', { name })
}

export function colourModeButton(page: Page): Locator {
  return page.getByRole('banner').getByRole('button', { name: /^Colour mode:/ })
}

export function languageSelect(page: Page, name = 'Language'): Locator {
  return page.getByRole('banner').getByRole('combobox', { name })
}

/** Waits until the app has started (the header renders once config and strings are loaded). */
export async function appReady(page: Page) {
  await expect(page.getByRole('banner')).toBeVisible()
}

export async function expectErrorScreen(page: Page, status: number, message: string) {
  const main = page.getByRole('main')
  await expect(main.getByRole('heading', { level: 1, name: 'Something went wrong.' })).toBeVisible()
  await expect(main.getByTestId('error-status')).toHaveText(String(status))
  await expect(main.getByTestId('error-message')).toHaveText(message)
  await expect(main.getByRole('link', { name: 'Home' })).toBeVisible()
  await expect(main.getByRole('button', { name: 'Go Back' })).toBeVisible()
}

const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/**
 * axe-core's script, put into a page once per document. The app has no frames, so axe runs in the
 * page itself: @axe-core/playwright's builder took 0.7–1.4 s a check (it injects the script again
 * each time and opens a blank page to assemble the results), this 0.1–0.4 s.
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
declare global {
  interface Window {
    axe?: { run: (context: Document, options: RunOptions) => Promise<AxeResults> }
  }
}

/** Every finite animation of the page has ended (an infinite one, a spinner, never does). */
export async function animationsDone(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  )
}

/**
 * axe's findings on the page once its animations have ended, as short readable lines (empty when
 * clean): mid-transition (a dialog fading in, the colours of a mode changing) axe would measure
 * contrasts of colours the page never settles on.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await animationsDone(page)
  if (!(await page.evaluate(() => window.axe !== undefined))) await page.evaluate(axeSource)
  const results = await page.evaluate((tags) => {
    if (!window.axe) throw new Error('axe-core is not in the page')
    return window.axe.run(document, { runOnly: { type: 'tag', values: tags } })
  }, wcagTags)
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact ?? 'n/a'}): ${node.target.join(' ')} — ${node.failureSummary?.replace(/\s+/g, ' ') ?? violation.help}`,
    ),
  )
}

/**
 * Holds back every script of the app (`/assets/*.js`) from now on: the page stays as the server
 * rendered it, not yet started, until the returned function lets them through.
 */
export async function holdScripts(page: Page): Promise<() => Promise<void>> {
  let letThrough = () => {}
  const held = new Promise<void>((resolve) => (letThrough = resolve))
  await page.route(/\/assets\/[^?]+\.js(\?|$)/, async (route) => {
    await held
    await route.continue()
  })
  return async () => {
    letThrough()
    await expect(page.locator('html')).toHaveAttribute('data-app', 'started')
  }
}

/**
 * Opens a page whose scripts `holdScripts` holds: the document is there, and its heading shown
 * (`mainFrame().goto`: the fixture's goto waits for the start, and `load` for the held scripts).
 */
export async function openBeforeStart(page: Page, path: string) {
  await page.mainFrame().goto(path, { waitUntil: 'commit' })
  await expect(mainHeading(page)).toBeVisible()
}

/** The page has not started: what is pressed now is the server's HTML alone. */
export async function expectNotStarted(page: Page) {
  expect(await page.evaluate(() => document.documentElement.dataset.app)).toBeUndefined()
}
