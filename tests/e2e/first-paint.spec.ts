import type { Page } from '@playwright/test'
import { password, subjects, uniqueEmail, waitForMail } from './helpers/accounts'
import { appReady, expect, expectNotStarted, holdScripts, mainHeading, open, openBeforeStart, test } from './helpers/fixtures'

// The server's HTML already shows the page (src/server/http/pages.ts); the app takes it over
// (hydrates it, with React DOM) without a change and without a warning, and the page is right
// before any script.

const pages = [
  { path: '/', heading: { en: 'Learn a language level by level', ru: 'Изучайте язык уровень за уровнем' } },
  { path: '/about', heading: { en: 'About Lingua', ru: 'О Lingua' } },
  { path: '/login', heading: { en: 'Sign in', ru: 'Вход' } },
  { path: '/register', heading: { en: 'Create an account', ru: 'Регистрация' } },
  { path: '/confirm', heading: { en: 'Open the link from your email', ru: 'Откройте ссылку из письма' } },
] as const

/** What the page's server HTML was, kept by an init script. */
interface ServerPage {
  serverHeading?: Element | null
  serverMarkup?: string
}

/** Words of a page the app could not take over, should a development build log them. */
const hydrationTrouble = /hydrat/i

/** The painted background of the page: dark or not (from its sRGB luminance). */
const paintedDark = (page: Page) =>
  page.evaluate(() => {
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })
    if (!context) throw new Error('no 2d canvas')
    context.fillStyle = getComputedStyle(document.documentElement).backgroundColor
    context.fillRect(0, 0, 1, 1)
    const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128
  })

for (const [language, mode] of [
  ['en', 'light'],
  ['ru', 'dark'],
] as const) {
  test.describe(`in ${language}, ${mode}`, () => {
    test.use({ locale: language === 'ru' ? 'ru-RU' : 'en-US', colorScheme: mode })

    for (const { path, heading } of pages) {
      test(`${path} is taken over as the server wrote it, without a hydration warning`, async ({ page, diagnostics }) => {
        const warnings: string[] = []
        page.on('console', (message) => {
          if (hydrationTrouble.test(message.text())) warnings.push(message.text())
        })
        page.on('pageerror', (error) => {
          if (hydrationTrouble.test(error.message)) warnings.push(error.message)
        })
        // The heading element and the page's markup as parsed from the server's HTML, before the
        // app's module runs.
        await page.addInitScript(() => {
          document.addEventListener('readystatechange', () => {
            if (document.readyState === 'interactive') {
              const server = window as unknown as ServerPage
              server.serverHeading = document.querySelector('main h1')
              server.serverMarkup = document.querySelector('main')?.outerHTML
            }
          })
        })
        await open(page, path)
        await appReady(page)
        await expect(mainHeading(page)).toHaveText(heading[language])
        await expect(page.locator('html')).toHaveAttribute('lang', language)
        const taken = await page.evaluate(() => {
          const server = window as unknown as ServerPage
          return {
            sameHeading: document.querySelector('main h1') === server.serverHeading,
            markup: document.querySelector('main')?.outerHTML,
            serverMarkup: server.serverMarkup,
            // React DOM keeps its root on the container under a key of this name (Preact under `__k`).
            runtime: Object.keys(document.getElementById('root') ?? {}).find((key) => key.startsWith('__react')),
          }
        })
        // The runtime the product asks for runs the page: React DOM, not a compatible one.
        expect(taken.runtime).toMatch(/^__reactContainer\$/)
        // Hydrated, not drawn again: the very element the server's HTML made is on screen, and the
        // app changed nothing of the page (a text or element it renders otherwise would be).
        expect(taken.sameHeading).toBe(true)
        expect(taken.markup).toBe(taken.serverMarkup)
        expect(warnings).toEqual([])
        expect(diagnostics.pageErrors).toEqual([])
      })
    }
  })
}

test('what is typed and sent before the app has started is kept, and sent once it has', async ({ page }) => {
  // The app's code is held back: the page stays as the server rendered it until it is let through.
  const release = await holdScripts(page)
  const sent: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST') sent.push(new URL(request.url()).pathname)
  })
  await openBeforeStart(page, '/register')
  const email = uniqueEmail('Early Bird')
  await page.getByLabel('Name').fill('Early Bird')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password').fill(password)
  await page.getByRole('button', { name: 'Create account' }).click()
  // Not posted to the page (which would have come back empty): still there, as typed.
  await expect(page.getByLabel('Email')).toHaveValue(email)
  await expectNotStarted(page)
  expect(sent).toEqual([])

  await release()
  await expect(mainHeading(page)).toHaveText('Check your email')
  expect(await waitForMail(email, subjects.confirm)).toBeTruthy()
  expect(sent.filter((path) => path.startsWith('/api/auth/sign-up'))).toHaveLength(1)
})

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false, locale: 'ru-RU', colorScheme: 'light' })

  test('the pages are there, in the language of the browser and the colour mode of the system', async ({ page }) => {
    for (const { path, heading } of pages) {
      await open(page, path)
      await expect(mainHeading(page)).toHaveText(heading.ru)
      await expect(page.locator('html')).toHaveAttribute('lang', 'ru')
      expect(await paintedDark(page)).toBe(false)
    }
    await page.screenshot({ path: test.info().outputPath('login-ru-light-no-script.png') })
  })

  test('a colour mode and a language chosen in the app (their cookies) apply from the first paint', async ({ page, context, baseURL }) => {
    await context.addCookies([
      { name: 'lingua.theme', value: 'dark', url: baseURL },
      { name: 'lingua.lang', value: 'en', url: baseURL },
    ])
    await open(page, '/')
    await expect(mainHeading(page)).toHaveText('Learn a language level by level')
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    expect(await paintedDark(page)).toBe(true)
    // The levels are in the page, read from the database by the server.
    await expect(page.getByRole('listitem').filter({ hasText: 'Beginner' })).toBeVisible()
    await page.screenshot({ path: test.info().outputPath('home-en-dark-no-script.png') })
  })

  test('with the system in dark mode and no choice, the page is dark', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, colorScheme: 'dark', baseURL })
    const page = await context.newPage()
    await open(page, '/about')
    expect(await paintedDark(page)).toBe(true)
    await context.close()
  })
})
