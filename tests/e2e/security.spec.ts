import type { Browser, Page } from '@playwright/test'
import { desktopUserAgent } from '../../playwright.config'
import { password, signedInAs, userMenuButton } from './helpers/accounts'
import { type Level, type OwnServer, levelsApi, startOwnServer } from './helpers/admin'
import { expect, mainHeading, test } from './helpers/fixtures'

// What an attacker can type into the app comes back as text, never as markup or script; and the
// `?redirect=` of the sign-in page never leaves the site. The fixtures fail any test on a
// Content-Security-Policy violation, so a payload the policy had to stop fails it too.

/** Names that would run script if a page put them into the DOM as HTML. */
const payloads = {
  img: `<img src=x onerror=alert('level-img')>`,
  script: `<script>alert('level-script')</script>`,
  attribute: `"><svg onload=alert('level-svg')>`,
}
const userName = `"><img src=x onerror=alert('user')><script>alert('user')</script>`
const description = `<iframe src="javascript:alert('description')"></iframe><b>bold?</b>`

/** Fails the test on any alert/confirm/prompt: one would mean a payload ran. */
function watchDialogs(page: Page): string[] {
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`)
    void dialog.dismiss()
  })
  return dialogs
}

/** No element a payload would have created if it had been parsed as HTML. */
async function expectNoInjectedMarkup(page: Page) {
  await expect(page.locator('[onerror], [onload], img[src="x"], iframe, svg[onload]')).toHaveCount(0)
  await expect(page.locator('script', { hasText: 'alert(' })).toHaveCount(0)
  await expect(page.locator('b', { hasText: 'bold?' })).toHaveCount(0)
}

test.describe('script payloads in names', () => {
  test('render as text on the home page, the admin list and level page, the palette, the dashboard and the account page', async ({
    browser,
  }) => {
    // A server of its own (it starts within the test's time): its levels carry the payloads, which
    // the other specs' lists must not meet (a reorder there names every level), and its first
    // account becomes its administrator.
    test.setTimeout(150_000)
    const server = await startOwnServer()
    try {
      await expectPayloadsAsText(browser, server)
    } finally {
      await server.stop()
    }
  })
})

async function expectPayloadsAsText(browser: Browser, server: OwnServer) {
  const context = await browser.newContext({ baseURL: server.url, userAgent: desktopUserAgent })
  // The helper makes the address from the name: sign up plainly, then take the payload as name.
  await signedInAs(context, server.url, 'Payload User')
  const renamed = await context.request.post('/api/auth/update-user', {
    headers: { Origin: server.url },
    data: { name: userName },
  })
  expect(renamed.status(), await renamed.text()).toBe(200)
  // The role granted at verification is read from the database, not from the cached session.
  await context.request.get('/api/auth/get-session?disableCookieCache=true')
  const api = levelsApi(context.request, server.url)
  const levels: Level[] = []
  for (const [index, name] of Object.values(payloads).entries()) {
    levels.push(await api.create(`XSS${index + 1}`, name, description))
  }
  const page = await context.newPage()
  const dialogs = watchDialogs(page)
  const main = page.getByRole('main')

  await page.goto('/')
  for (const name of Object.values(payloads)) await expect(main.getByText(name, { exact: true })).toBeVisible()
  await expect(main.getByText(description, { exact: true }).first()).toBeVisible()
  await expectNoInjectedMarkup(page)

  await page.goto('/admin/language-levels')
  const table = page.getByRole('table', { name: 'Language levels' })
  for (const name of Object.values(payloads)) await expect(table).toContainText(name)
  await expectNoInjectedMarkup(page)

  const [first] = levels
  await page.goto(`/admin/language-levels/${first?.id}`)
  await expect(mainHeading(page)).toHaveText(`${first?.code} ${first?.name}`)
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(first?.name ?? '')
  // The confirm dialog builds its sentence from the name: still text.
  await page.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(page.getByRole('alertdialog')).toContainText(first?.name ?? '')
  await page.keyboard.press('Escape')
  await expectNoInjectedMarkup(page)

  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  await palette.getByRole('combobox').fill('XSS')
  for (const level of levels) {
    await expect(palette.getByRole('option', { name: `${level.code} ${level.name}` })).toBeVisible()
  }
  await expectNoInjectedMarkup(page)
  await page.keyboard.press('Escape')

  await page.goto('/dashboard')
  await expect(mainHeading(page)).toHaveText(`Hello, ${userName}!`)
  await page.getByLabel('Current level').selectOption({ label: `XSS1 — ${payloads.img}` })
  await page.getByLabel('Target level').selectOption({ label: `XSS3 — ${payloads.attribute}` })
  await page.getByRole('button', { name: 'Save profile' }).click()
  await expect(main.getByText(payloads.img, { exact: true }).first()).toBeVisible()
  await expectNoInjectedMarkup(page)

  await page.goto('/account')
  await expect(mainHeading(page)).toHaveText('Account')
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(userName)
  await expect(userMenuButton(page, userName)).toBeVisible()
  await expectNoInjectedMarkup(page)

  expect(dialogs, 'dialogs opened by a payload').toEqual([])
  await context.close()
}

test.describe('the redirect after sign-in', () => {
  let email: string
  test.beforeAll(async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL })
    email = await signedInAs(context, baseURL ?? '', 'Redirect Target')
    await context.close()
  })

  // `//evil.example/path` is in auth.spec.ts; these are the other ways of writing another site.
  const attempts: [what: string, query: string][] = [
    ['an absolute URL', 'redirect=https%3A%2F%2Fevil.example%2F'],
    ['a backslash after the slash', 'redirect=%2F%5Cevil.example'],
    ['two backslashes', 'redirect=%5C%5Cevil.example'],
    ['a javascript: URL', 'redirect=javascript%3Aalert(1)'],
    ['a percent-encoded protocol-relative URL', 'redirect=%2F%2Fevil.example'],
    ['a double-encoded protocol-relative URL', 'redirect=%252F%252Fevil.example'],
    ['a tab the URL parser drops', 'redirect=%2F%09%2Fevil.example'],
    ['three slashes', 'redirect=%2F%2F%2Fevil.example'],
  ]

  for (const [what, query] of attempts) {
    test(`through ${what} lands on the dashboard`, async ({ page, baseURL }) => {
      const dialogs = watchDialogs(page)
      const leaving: string[] = []
      page.on('request', (request) => {
        if (new URL(request.url()).hostname.endsWith('evil.example')) leaving.push(request.url())
      })
      await page.goto(`/login?${query}`)
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password', { exact: true }).fill(password)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await expect(page).toHaveURL(`${baseURL}/dashboard`)
      await expect(mainHeading(page)).toHaveText('Hello, Redirect Target!')
      expect(leaving).toEqual([])
      expect(dialogs).toEqual([])
    })
  }
})
