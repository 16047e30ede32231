import type { APIRequestContext, Locator, Page } from '@playwright/test'
import ru from '@/client/locales/ru'
import {
  ViolationReport,
  colourModes,
  expectVisibleFocus,
  interfaceLanguages,
  prefer,
  settled,
  tabTo,
} from './helpers/a11y'
import { password, signedInAs, uniqueEmail } from './helpers/accounts'
import { type Level, type OwnServer, type StorageState, startOwnAdminWorld } from './helpers/admin'
import { expect, expectErrorScreen, mainHeading, test as base } from './helpers/fixtures'

// The admin area's start page (`/admin`): the figures of the user base, the three charts and their
// tables, the section navigation on every admin page, and "Recent changes". It runs on a server of
// its own, so that the figures are known: its first confirmed account is the administrator; a
// learner with a profile and an account whose email is not confirmed are made before the tests.
// The server keeps the figures for 30 s and computes them again after an administrator's action
// on people: a test that needs fresh figures ends the sessions of the unconfirmed account, which
// changes no figure.

interface World {
  server: OwnServer
  admin: StorageState
  unconfirmed: string
  levels: Level[]
}

const test = base.extend<{ world: World }, { ownWorld: World }>({
  ownWorld: [
    async ({ browser }, use) => {
      const { server, admin, levels } = await startOwnAdminWorld(browser, 'Olga Overview')
      const context = await browser.newContext({ baseURL: server.url })
      try {
        const unconfirmed = uniqueEmail('Una Confirmed')
        const signUp = await context.request.post('/api/auth/sign-up/email', {
          headers: { Origin: server.url },
          data: { name: 'Una Confirmed', email: unconfirmed, password },
        })
        expect(signUp.status()).toBe(200)
        await context.close()
        await use({ server, admin, unconfirmed, levels })
      } finally {
        await server.stop()
      }
    },
    { scope: 'worker' },
  ],
  world: async ({ ownWorld }, use) => use(ownWorld),
  baseURL: async ({ ownWorld }, use) => use(ownWorld.server.url),
  storageState: async ({ ownWorld }, use) => use(ownWorld.admin),
})

// In order, in one worker: the first test reads the figures of the server as the world left it.
test.describe.configure({ mode: 'default' })

const adminNav = (page: Page) => page.getByRole('navigation', { name: 'Administration' })
const chart = (page: Page, title: string) => page.getByRole('region', { name: title })

/** The number shown for a figure ("Accounts"). */
function figure(page: Page, label: string): Locator {
  return page
    .getByRole('main')
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd')
    .first()
}

async function expectFigures(page: Page, expected: Record<string, string>) {
  for (const [label, value] of Object.entries(expected)) {
    await expect(figure(page, label), label).toHaveText(value)
  }
}

/** Opens a chart's table and answers it. */
async function openTable(page: Page, title: string): Promise<Locator> {
  const region = chart(page, title)
  await region.getByRole('button', { name: 'Show as table' }).click()
  const table = region.getByRole('table', { name: title })
  await expect(table).toBeVisible()
  return table
}

const cellOf = (table: Locator, row: string) =>
  table
    .getByRole('row')
    .filter({ has: table.page().getByRole('rowheader', { name: row, exact: true }) })
    .getByRole('cell')
    .last()

async function userIdOf(request: APIRequestContext, email: string): Promise<string> {
  const response = await request.get(`/api/admin/users?${new URLSearchParams({ q: email }).toString()}`)
  expect(response.status()).toBe(200)
  const { items } = (await response.json()) as { items: { id: string; email: string }[] }
  const id = items.find((person) => person.email === email)?.id
  expect(id, `the id of ${email}`).toBeDefined()
  return id ?? ''
}

/** An administrator's action that changes no figure: the server computes the figures again. */
async function refreshFigures(request: APIRequestContext, world: World) {
  const id = await userIdOf(request, world.unconfirmed)
  const response = await request.post(`/api/admin/users/${id}/sign-out`, { headers: { Origin: world.server.url } })
  expect(response.status()).toBe(204)
}

/** A confirmed learner with levels in their profile, made in a context of its own. */
async function learnerWithLevels(page: Page, world: World, name: string, current: Level, target: Level) {
  const context = await page.context().browser()?.newContext({ baseURL: world.server.url })
  if (!context) throw new Error('no browser')
  const email = await signedInAs(context, world.server.url, name)
  const saved = await context.request.put('/api/me/profile', {
    headers: { Origin: world.server.url },
    data: { language: 'en', currentLevelId: current.id, targetLevelId: target.id },
  })
  expect(saved.status(), await saved.text()).toBe(200)
  await context.close()
  return email
}

test('the figures, the charts as tables in level order, and an empty chart that says so', async ({ page, world }) => {
  const { levels } = world
  const codes = levels.map((level) => level.code)
  await page.goto('/admin')
  await expect(mainHeading(page)).toHaveText('Overview')
  await expect(page).toHaveTitle(/^Overview · /)
  await expect(page.getByText(/^Figures as of \d{1,2}:\d{2}:\d{2}/)).toBeVisible()
  await expectFigures(page, {
    Accounts: '2',
    Confirmed: '1',
    'Two-step verification on': '0',
    'New this week': '2',
    Disabled: '0',
    Administrators: '1',
  })
  // Nobody has chosen a level yet: no chart of zeros, a sentence instead.
  for (const title of ['Learners per current level', 'Learners per target level']) {
    await expect(chart(page, title)).toContainText('No learner has chosen a level yet. 2 learners have not chosen one.')
    await expect(chart(page, title).getByText('No data', { exact: true })).toBeVisible()
    await expect(chart(page, title).locator('svg circle, svg rect')).toHaveCount(0)
    await expect(chart(page, title).getByRole('button', { name: 'Show as table' })).toHaveCount(0)
  }

  const [first, , , fourth] = levels
  if (!first || !fourth) throw new Error('the seeded levels are missing')
  await learnerWithLevels(page, world, 'Lena Learner', first, fourth)
  await refreshFigures(page.request, world)
  await page.reload()
  await expectFigures(page, { Accounts: '3', Confirmed: '2', 'New this week': '3', 'Active in the last 7 days': '2' })
  await expect(figure(page, 'Confirmed').locator('xpath=following-sibling::dd')).toHaveText('67% of accounts')

  const current = await openTable(page, 'Learners per current level')
  await expect(current.getByRole('rowheader')).toHaveText([...codes, 'No level'])
  await expect(cellOf(current, first.code)).toHaveText('1')
  await expect(cellOf(current, fourth.code)).toHaveText('0')
  await expect(cellOf(current, 'No level')).toHaveText('2')
  await expect(chart(page, 'Learners per current level')).toContainText(
    `1 learner has chosen a level; the most chose ${first.code} (1). 2 learners have not chosen one.`,
  )
  const target = await openTable(page, 'Learners per target level')
  await expect(target.getByRole('rowheader')).toHaveText([...codes, 'No level'])
  await expect(cellOf(target, fourth.code)).toHaveText('1')

  // Twelve weeks, oldest first; this week's sign-ups last.
  const signUps = await openTable(page, 'Sign-ups per week')
  await expect(signUps.getByRole('rowheader')).toHaveCount(12)
  await expect(signUps.getByRole('row').last().getByRole('cell')).toHaveText('3')
  // The drawing is left to the eyes; the summary and the table say the same. A point per week.
  const drawing = chart(page, 'Sign-ups per week').locator('[aria-hidden="true"]').filter({ has: page.locator('svg circle') })
  await expect(drawing).toHaveCount(1)
  await expect(drawing.locator('circle')).toHaveCount(12)
})

test('the figures follow the accounts: one more confirmed, then disabled', async ({ page, world }) => {
  await page.goto('/admin')
  const before = Number((await figure(page, 'Accounts').textContent())?.replace(/\D/g, ''))
  const confirmedBefore = Number((await figure(page, 'Confirmed').textContent())?.replace(/\D/g, ''))
  const [level] = world.levels
  if (!level) throw new Error('the seeded levels are missing')
  const email = await learnerWithLevels(page, world, 'Dora Disabled', level, level)
  const disabled = await page.request.post(`/api/admin/users/${await userIdOf(page.request, email)}/disable`, {
    headers: { Origin: world.server.url },
  })
  expect(disabled.status()).toBe(200)
  await page.reload()
  await expectFigures(page, {
    Accounts: String(before + 1),
    Confirmed: String(confirmedBefore + 1),
    Disabled: '1',
  })
})

test('the section navigation is on every admin page and marks where you are', async ({ page, world }) => {
  const [level] = world.levels
  if (!level) throw new Error('the seeded levels are missing')
  const person = await userIdOf(page.request, world.unconfirmed)
  const pages = [
    { path: '/admin', section: 'Overview', current: 'page' },
    { path: '/admin/users', section: 'People', current: 'page' },
    { path: `/admin/users/${person}`, section: 'People', current: 'true' },
    { path: '/admin/language-levels', section: 'Language levels', current: 'page' },
    { path: `/admin/language-levels/${level.id}`, section: 'Language levels', current: 'true' },
    { path: '/admin/language-levels/create', section: 'Language levels', current: 'true' },
    { path: '/admin/recent-changes', section: 'Recent changes', current: 'page' },
  ]
  for (const { path, section, current } of pages) {
    await page.goto(path)
    await expect(mainHeading(page), path).toBeVisible()
    const nav = adminNav(page)
    await expect(nav.getByRole('link'), path).toHaveText(['Overview', 'People', 'Language levels', 'Can-do statements', 'Recent changes'])
    await expect(nav.getByRole('link', { name: section }), path).toHaveAttribute('aria-current', current)
    await expect(nav.locator('[aria-current]'), path).toHaveCount(1)
  }
  // Its links go where they say.
  await adminNav(page).getByRole('link', { name: 'Overview' }).click()
  await expect(page).toHaveURL(/\/admin$/)
  await expect(mainHeading(page)).toHaveText('Overview')
  await expect(adminNav(page).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page')
})

test('recent changes lists what administrators did, newest first, with a link to the person', async ({
  page,
  world,
}) => {
  const id = await userIdOf(page.request, world.unconfirmed)
  await refreshFigures(page.request, world)
  await page.goto('/admin/recent-changes')
  await expect(mainHeading(page)).toHaveText('Recent changes')
  await expect(page).toHaveTitle(/^Recent changes · /)
  const table = page.getByRole('table', { name: 'Recent changes' })
  const newest = table.getByRole('row').nth(1)
  await expect(newest).toContainText('Signed out all sessions')
  await expect(newest).toContainText(`User ${world.unconfirmed}`)
  // The role the server gave the first confirmed account, by nobody.
  await expect(table.getByRole('row').filter({ hasText: 'Granted the admin role' }).last()).toContainText('System')
  await newest.getByRole('link', { name: `User ${world.unconfirmed}` }).click()
  await expect(page).toHaveURL(new RegExp(`/admin/users/${id}$`))
  await expect(adminNav(page).getByRole('link', { name: 'People' })).toHaveAttribute('aria-current', 'true')
})

test('"Show as table" works by keyboard', async ({ page }) => {
  await page.goto('/admin')
  const region = chart(page, 'Learners per current level')
  const toggle = region.getByRole('button', { name: 'Show as table' })
  await expect(mainHeading(page)).toHaveText('Overview')
  await mainHeading(page).focus()
  await tabTo(page, toggle)
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await page.keyboard.press('Enter')
  const hide = region.getByRole('button', { name: 'Hide table' })
  await expect(hide).toBeFocused()
  await expect(hide).toHaveAttribute('aria-expanded', 'true')
  await expect(region.getByRole('table')).toBeVisible()
  await expectVisibleFocus(page, 'Enter')
  await page.keyboard.press('Space')
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(region.getByRole('table')).toBeHidden()
})

test('no WCAG violations on the overview (tables open) and recent changes, in both languages and colour modes', async ({
  context,
}) => {
  test.setTimeout(120_000)
  const report = new ViolationReport()
  for (const lang of interfaceLanguages) {
    for (const mode of colourModes) {
      const page = await context.newPage()
      await prefer(page, mode, lang)
      await page.goto('/admin')
      await settled(page, mode, lang)
      const show = lang === 'en' ? 'Show as table' : ru.adminOverview.showTable
      for (const title of lang === 'en'
        ? ['Learners per current level', 'Learners per target level', 'Sign-ups per week']
        : [ru.adminOverview.currentLevelsTitle, ru.adminOverview.targetLevelsTitle, ru.adminOverview.signUpsTitle]) {
        await chart(page, title).getByRole('button', { name: show }).click()
        await expect(chart(page, title).getByRole('table')).toBeVisible()
      }
      // The three charts drawn (their axes' labels are text in the SVG).
      await expect(page.locator('svg:has(text)')).toHaveCount(3)
      await report.check(page, `/admin ${lang} ${mode}`)
      await page.goto('/admin/recent-changes')
      await settled(page, mode, lang)
      await expect(page.getByRole('table')).toBeVisible()
      await report.check(page, `/admin/recent-changes ${lang} ${mode}`)
      await page.close()
    }
  }
  report.expectNone()
})

test('a learner gets the 403 screen on the admin pages', async ({ page, context, world, diagnostics }) => {
  diagnostics.allowConsoleError(/Administrators only/)
  await context.clearCookies()
  await signedInAs(context, world.server.url, 'Nora Notadmin')
  for (const path of ['/admin', '/admin/recent-changes']) {
    await page.goto(path)
    await expectErrorScreen(page, 403, 'Administrators only')
    await expect(adminNav(page)).toHaveCount(0)
  }
})
