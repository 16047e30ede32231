import {
  appReady,
  expect,
  expectErrorScreen,
  failedResource,
  guardedPaths,
  mainHeading,
  mainNav,
  open,
  test,
  visitorPages,
} from './helpers/fixtures'

// A visitor finds every page, and the ones they may not see send them to sign in.

test.describe('pages a visitor can open', () => {
  for (const { path, heading } of visitorPages) {
    test(`${path} renders with its heading`, async ({ page }) => {
      await open(page, path)
      await expect(mainHeading(page)).toHaveText(heading)
      await expect(page).toHaveURL(path)
      await expect(page.getByRole('main').getByText('Something went wrong.')).toHaveCount(0)
      // The layout around every page.
      await expect(mainNav(page).getByRole('link', { name: 'Home' })).toBeVisible()
      await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Fetching' })).toBeVisible()
      await expect(page).toHaveTitle(/Lingua$/)
      // The fixture fails the test on any console error, CSP violation or page error.
    })
  }

  test('header and footer links navigate inside the app without reloading', async ({ page }) => {
    await open(page, '/')
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }))

    await mainNav(page).getByRole('link', { name: 'About' }).click()
    await expect(page).toHaveURL('/about')
    await expect(mainHeading(page)).toHaveText('About Lingua')

    const footer = page.getByRole('contentinfo')
    for (const [name, path, heading] of [
      ['Fetching', '/fetching', 'Fetching data'],
      ['Posting a form', '/fetching-post', 'Posting a form'],
      ['Shared state', '/shared-state-home', 'Shared state: first page'],
    ] as const) {
      await footer.getByRole('link', { name }).click()
      await expect(page).toHaveURL(path)
      await expect(mainHeading(page)).toHaveText(heading)
    }

    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click()
    await expect(page).toHaveURL('/login')
    await page.getByRole('banner').getByRole('link', { name: 'Register' }).click()
    await expect(page).toHaveURL('/register')
    await mainNav(page).getByRole('link', { name: 'Home' }).click()
    await expect(page).toHaveURL('/')
    await expect(mainHeading(page)).toHaveText('Learn a language level by level')

    expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
  })

  test('on a narrow screen the menu button reveals navigation, language and sign-in', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 })
    await open(page, '/')
    const header = page.getByRole('banner')
    const menu = header.getByRole('button', { name: 'Menu' })
    await expect(menu).toHaveAttribute('aria-expanded', 'false')
    await expect(header.getByRole('link', { name: 'Sign in' })).toBeHidden()
    await expect(header.getByRole('combobox', { name: 'Language' })).toBeHidden()

    await menu.click()
    await expect(menu).toHaveAttribute('aria-expanded', 'true')
    await expect(header.getByRole('combobox', { name: 'Language' })).toBeVisible()
    await header.getByRole('link', { name: 'Sign in' }).click()
    await expect(page).toHaveURL('/login')
    // The menu closes after navigating.
    await expect(menu).toHaveAttribute('aria-expanded', 'false')
    await expect(header.getByRole('link', { name: 'Sign in' })).toBeHidden()
  })
})

test.describe('missing pages', () => {
  test.beforeEach(({ diagnostics }) => diagnostics.allowConsoleError(failedResource(404)))

  test('an unknown path answers 404 with the error screen', async ({ page }) => {
    await open(page, '/x', 404)
    await expectErrorScreen(page, 404, 'Page not found: /x')
    await expect(page).toHaveTitle('404 · Lingua')
  })

  test('a nested unknown path keeps its full path in the message', async ({ page }) => {
    await open(page, '/about/more/stuff', 404)
    await expectErrorScreen(page, 404, 'Page not found: /about/more/stuff')
  })

  for (const id of ['abc', '0', '01', '-1']) {
    test(`a level id that is not a positive integer (${id}) answers 404`, async ({ page, diagnostics }) => {
      // The router logs the error its guard threw.
      diagnostics.allowConsoleError(/^HttpError: Page Not Found: \/admin\/language-levels\//)
      await open(page, `/admin/language-levels/${id}`, 404)
      await expectErrorScreen(page, 404, `Page Not Found: /admin/language-levels/${id}`)
    })
  }

  test('the error screen speaks Russian when Russian is chosen', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('lingua.lang', 'ru'))
    await open(page, '/nope', 404)
    const main = page.getByRole('main')
    await expect(main.getByRole('heading', { level: 1, name: 'Что-то пошло не так.' })).toBeVisible()
    await expect(main.getByTestId('error-message')).toHaveText('Страница не найдена: /nope')
    await expect(main.getByRole('link', { name: 'На главную' })).toBeVisible()
    await expect(main.getByRole('button', { name: 'Назад' })).toBeVisible()
  })
})

test.describe('the error screen buttons', () => {
  test.beforeEach(({ diagnostics }) => diagnostics.allowConsoleError(failedResource(404)))

  test("'Home' goes to /", async ({ page }) => {
    await open(page, '/nope', 404)
    await page.getByRole('main').getByRole('link', { name: 'Home' }).click()
    await expect(page).toHaveURL('/')
    await expect(mainHeading(page)).toHaveText('Learn a language level by level')
  })

  test("'Go Back' returns to the previous page of the history", async ({ page }) => {
    await open(page, '/about')
    await open(page, '/nope', 404)
    await expectErrorScreen(page, 404, 'Page not found: /nope')
    await page.getByRole('main').getByRole('button', { name: 'Go Back' }).click()
    await expect(page).toHaveURL('/about')
    await expect(mainHeading(page)).toHaveText('About Lingua')
  })

  test("'Go Back' with no history goes to /", async ({ page }) => {
    // A new tab: nothing of this site before the error screen.
    await open(page, '/nope', 404)
    await page.getByRole('main').getByRole('button', { name: 'Go Back' }).click()
    await expect(page).toHaveURL('/')
    await expect(mainHeading(page)).toHaveText('Learn a language level by level')
  })
})

test.describe('a crawler', () => {
  test.use({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })

  test('gets no error screen on a missing page; the error is logged instead', async ({ page, diagnostics }) => {
    diagnostics.allowConsoleError(failedResource(404))
    diagnostics.allowConsoleError(/^\[404\] Page not found: \/nope/)
    const logged = page.waitForEvent('console', {
      predicate: (message) => message.type() === 'error' && message.text().startsWith('[404]'),
    })
    const reported = page.waitForRequest(
      (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/client-errors',
    )

    await open(page, '/nope', 404)
    expect((await logged).text()).toBe('[404] Page not found: /nope')
    const report = (await reported).postDataJSON() as Record<string, unknown>
    expect(report).toMatchObject({ status: 404, message: 'Page not found: /nope', path: '/nope' })

    // The app itself runs; only the error screen is left out.
    await appReady(page)
    await expect(page.getByText('Something went wrong.')).toHaveCount(0)
    await expect(page.getByRole('main').getByRole('heading')).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Go Back' })).toHaveCount(0)
  })

  test('still sees the pages that exist', async ({ page }) => {
    await open(page, '/about')
    await expect(mainHeading(page)).toHaveText('About Lingua')
  })
})

test.describe('guarded pages for a signed-out visitor', () => {
  for (const path of guardedPaths) {
    test(`${path} redirects to /login?redirect=${path}`, async ({ page }) => {
      // Every <h1> the page ever shows, to prove the guarded page never rendered before the redirect.
      await page.addInitScript(() => {
        const seen: string[] = []
        Object.assign(window, { __headings: seen })
        new MutationObserver(() => {
          for (const h1 of document.querySelectorAll('h1')) {
            const text = h1.textContent ?? ''
            // An <h1> the parser has just inserted has no text yet (the HTML arrives in pieces).
            if (text !== '' && !seen.includes(text)) seen.push(text)
          }
        }).observe(document, { childList: true, subtree: true, characterData: true })
      })

      await open(page, path)
      await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(path)}`)
      await expect(mainHeading(page)).toHaveText('Sign in')
      expect(await page.evaluate(() => (window as { __headings?: string[] }).__headings)).toEqual(['Sign in'])
    })
  }

  test('the redirect keeps the query string of the guarded page', async ({ page }) => {
    await open(page, '/admin/language-levels?q=b2&page=2')
    await expect(page).toHaveURL(/\/login\?/)
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/admin/language-levels?q=b2&page=2')
  })
})
