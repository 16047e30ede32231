import type { Browser, BrowserContext, Page } from '@playwright/test'
import { createPostgresDatabase } from '../../scripts/lib/databases.mjs'
import { clientDir, freePort, spawnNodeServer, waitReady } from '../../scripts/lib/server.mjs'
import { confirmPath, password, register, signInWithPassword, subjects, uniqueEmail, userMenuButton, waitForMail } from './helpers/accounts'
import { expect, mainHeading, test } from './helpers/fixtures'

/**
 * Live updates between two instances of the app on one PostgreSQL database, each with browsers of
 * its own (docs/decisions/0013-live-updates.md): what one instance commits reaches the screens
 * served by the other, without a reload.
 */

const databaseUrl = process.env.TEST_DATABASE_URL
test.skip(!databaseUrl, 'needs PostgreSQL (TEST_DATABASE_URL): two instances share one database')
test.describe.configure({ mode: 'serial' })

/**
 * How long these tests wait for a change to reach an open screen: a guard against "never", not the
 * product's "within 2 s", which bench/live.mjs measures (delivery to the other instance, p99). On a
 * loaded two-core machine running two instances and four browsers, 2 s was a race of the machine's:
 * a sign-out reached its tabs on the retry, the app unchanged.
 */
const LIVE_MS = 10_000

interface Instance {
  url: string
  stop(): Promise<unknown>
}

const smtpPort = process.env.E2E_SMTP_PORT ?? '4025'
const run = Date.now().toString(36)
const admins = { ada: `ada-${run}@live.test`, bob: `bob-${run}@live.test` }
let database: Awaited<ReturnType<typeof createPostgresDatabase>>
let a: Instance
let b: Instance

/** An instance on `port` (a fresh free one by default), ready. */
async function startInstance(port?: number): Promise<Instance & { port: number }> {
  const listenOn = port ?? (await freePort())
  const url = `http://127.0.0.1:${listenOn}`
  const child = spawnNodeServer({
    port: listenOn,
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      APP_URL: url,
      CLIENT_DIR: clientDir,
      DATABASE_URL: database.url,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'Lingua <no-reply@lingua.test>',
      ADMIN_EMAILS: Object.values(admins).join(','),
      AUTH_RATE_LIMIT_SCALE: '20',
    },
  })
  await waitReady(child, { timeoutMs: 60_000 })
  return { url, port: listenOn, stop: () => child.stop() }
}

test.beforeAll(async () => {
  test.setTimeout(120_000)
  database = await createPostgresDatabase(databaseUrl ?? '', 'lingua_e2e_live')
  a = await startInstance()
  b = await startInstance()
})

test.afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()])
  await database?.drop()
})

/** A browser of its own on `instance` (cookies are per host, not per port: one context each). */
async function browserOn(browser: Browser, instance: Instance): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: instance.url })
  return { context, page: await context.newPage() }
}

/** The page's stream is open (the app marks the root element once `ready` arrived). */
async function streamOpen(page: Page) {
  await expect(page.locator('html[data-live="open"]')).toHaveCount(1, { timeout: 15_000 })
}

/** Registers `name` on the page's instance and confirms: signed in, on the dashboard. */
async function signedUp(page: Page, name: string, email = uniqueEmail(name)) {
  await register(page, name, email)
  await expect(mainHeading(page)).toHaveText('Check your email')
  await page.goto(confirmPath(await waitForMail(email, subjects.confirm)))
  await expect(mainHeading(page)).toHaveText(`Hello, ${name}!`)
  return email
}

/** Renames level 1 through the admin's edit page; resolves once the server saved it. */
async function renameFirstLevel(admin: Page, name: string) {
  await admin.goto('/admin/language-levels/1')
  await admin.getByLabel('Name', { exact: true }).fill(name)
  const saved = admin.waitForResponse((response) => response.request().method() === 'PATCH' && response.status() === 200)
  await admin.getByRole('button', { name: 'Save changes' }).click()
  await saved
}

let ada: { context: BrowserContext; page: Page }

test('a level renamed on one instance shows at once on the home page, dashboard and admin table of the other', async ({ browser }) => {
  test.setTimeout(90_000)
  ada = await browserOn(browser, a)
  await signedUp(ada.page, 'Ada Admin', admins.ada)

  const visitor = await browserOn(browser, b)
  await visitor.page.goto('/')
  const learner = await browserOn(browser, b)
  await signedUp(learner.page, 'Lea Learner')
  const bob = await browserOn(browser, b)
  await signedUp(bob.page, 'Bob Admin', admins.bob)
  await bob.page.goto('/admin/language-levels')
  for (const { page } of [visitor, learner, bob]) await streamOpen(page)
  let reloads = 0
  for (const { page } of [visitor, learner, bob]) page.on('load', () => reloads++)

  await renameFirstLevel(ada.page, 'Breakthrough (live)')
  await expect(visitor.page.getByRole('main').getByText('Breakthrough (live)')).toBeVisible({ timeout: LIVE_MS })
  // The dashboard's level choices (options of a select: attached, not visible until opened).
  await expect(learner.page.getByRole('option', { name: 'A1 — Breakthrough (live)' }).first()).toBeAttached({ timeout: LIVE_MS })
  await expect(bob.page.getByRole('row').filter({ hasText: 'Breakthrough (live)' })).toBeVisible({ timeout: LIVE_MS })
  expect(reloads, 'no page was reloaded').toBe(0)
  for (const { context } of [visitor, learner, bob]) await context.close()
})

test('an administrator editing a level hears that another changed it, and Reload loads their version', async ({ browser }) => {
  const bob = await browserOn(browser, b)
  await bob.page.goto('/login')
  await signInWithPassword(bob.page, admins.bob, password)
  await expect(bob.page).toHaveURL(/\/dashboard$/)
  await bob.page.goto('/admin/language-levels/1')
  await streamOpen(bob.page)
  await bob.page.getByLabel('Description', { exact: true }).fill('Bob was typing this.')

  await renameFirstLevel(ada.page, 'Breakthrough (by Ada)')
  const notice = bob.page.getByRole('status').filter({ hasText: 'Changed by Ada Admin just now' })
  await expect(notice).toBeVisible({ timeout: LIVE_MS })
  // What Bob typed is kept until he chooses.
  await expect(bob.page.getByLabel('Description', { exact: true })).toHaveValue('Bob was typing this.')
  await notice.getByRole('button', { name: 'Reload' }).click()
  await expect(bob.page.getByLabel('Name', { exact: true })).toHaveValue('Breakthrough (by Ada)')
  await expect(notice).toBeHidden()
  await bob.context.close()
})

test('a role granted or revoked on one instance changes the navigation on the other without signing in again', async ({ browser }) => {
  const person = await browserOn(browser, b)
  const email = await signedUp(person.page, 'Rory Role')
  await streamOpen(person.page)
  const id = ((await (await person.page.request.get('/api/auth/get-session')).json()) as { user: { id: string } }).user.id
  const adminLink = async () => {
    await userMenuButton(person.page, 'Rory Role').click()
    const link = person.page.getByRole('banner').getByRole('link', { name: 'Administration', exact: true })
    return link
  }

  await ada.page.goto(`/admin/users/${id}`)
  await ada.page.getByRole('button', { name: 'Make administrator', exact: true }).click()
  await ada.page.getByRole('alertdialog').getByRole('button', { name: 'Make administrator', exact: true }).click()
  await expect(ada.page.getByRole('button', { name: 'Remove administrator', exact: true })).toBeVisible()
  await expect(await adminLink()).toBeVisible({ timeout: LIVE_MS })
  await person.page.keyboard.press('Escape')

  await ada.page.getByRole('button', { name: 'Remove administrator', exact: true }).click()
  await ada.page.getByRole('alertdialog').getByRole('button', { name: 'Remove administrator', exact: true }).click()
  await expect(ada.page.getByRole('button', { name: 'Make administrator', exact: true })).toBeVisible()
  await expect.poll(async () => {
    const count = await (await adminLink()).count()
    await person.page.keyboard.press('Escape')
    return count
  }, { timeout: LIVE_MS }).toBe(0)
  expect(email).toContain('@')
  await person.context.close()
})

test('signing out all sessions on one instance signs the open tabs on the other out', async ({ browser }) => {
  const person = await browserOn(browser, b)
  await signedUp(person.page, 'Sid Sessions')
  const second = await person.context.newPage()
  await second.goto('/account')
  for (const page of [person.page, second]) await streamOpen(page)
  const id = ((await (await person.page.request.get('/api/auth/get-session')).json()) as { user: { id: string } }).user.id

  await ada.page.goto(`/admin/users/${id}`)
  await ada.page.getByRole('button', { name: 'Sign out all sessions', exact: true }).click()
  await ada.page.getByRole('alertdialog').getByRole('button', { name: 'Sign out all sessions', exact: true }).click()
  await expect(ada.page.getByRole('alertdialog')).toBeHidden()
  await expect(person.page).toHaveURL(/\/login\?redirect=%2Fdashboard$/, { timeout: LIVE_MS })
  await expect(second).toHaveURL(/\/login\?redirect=%2Faccount$/, { timeout: LIVE_MS })
  await person.context.close()
})

test('after its instance restarts, an open page reconnects and gets the change it missed', async ({ browser }) => {
  test.setTimeout(120_000)
  const port = Number(new URL(b.url).port)
  const visitor = await browserOn(browser, b)
  await visitor.page.goto('/')
  await streamOpen(visitor.page)
  let reloads = 0
  visitor.page.on('load', () => reloads++)

  await b.stop()
  await expect(visitor.page.locator('html[data-live="connecting"]')).toHaveCount(1)
  // Made while the page's instance is down: only the replay can bring it.
  await renameFirstLevel(ada.page, 'Breakthrough (while down)')
  b = await startInstance(port)
  await expect(visitor.page.getByRole('main').getByText('Breakthrough (while down)')).toBeVisible({ timeout: 30_000 })
  expect(reloads).toBe(0)
  await visitor.context.close()
  await ada.context.close()
})
