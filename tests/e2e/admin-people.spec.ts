import type { APIRequestContext, BrowserContext, Page } from '@playwright/test'
import ru from '@/client/locales/ru'
import { ViolationReport, colourModes, expectHeadingFocused, interfaceLanguages, prefer, settled, tabTo } from './helpers/a11y'
import { confirmPath, password, subjects, waitForMail } from './helpers/accounts'
import { type OwnServer, startOwnServer } from './helpers/admin'
import { expect, expectErrorScreen, mainHeading, test } from './helpers/fixtures'

// The people table (`/admin/users`) and finding people in the command palette, as an administrator.
// On a server of its own: its first confirmed account is the administrator, and the table's counts,
// orders and pages are those of the accounts made here, which no other journey adds to meanwhile.

interface Person {
  id: string
  name: string
  email: string
}

/** The people made for this file: distinct two-letter email starts, one name with a rare middle. */
const seeded = [
  { name: 'Quentin Zebrowski', slug: 'qz.quentin', confirm: true },
  { name: 'Boris Pasternak', slug: 'bp.boris', confirm: true },
  { name: 'Chloé Dubois', slug: 'cd.chloe', confirm: false },
  { name: 'Dmitri Ivanov', slug: 'di.dmitri', confirm: true },
  { name: 'Élodie Martin', slug: 'em.elodie', confirm: false },
  { name: 'Farah Khan', slug: 'fk.farah', confirm: false },
  { name: 'Grace Hopper', slug: 'gh.grace', confirm: true },
  { name: 'Hiro Tanaka', slug: 'ht.hiro', confirm: false },
  { name: 'Ingrid Berg', slug: 'ib.ingrid', confirm: false },
  { name: 'Jamal Wright', slug: 'jw.jamal', confirm: false },
  { name: 'Katarzyna Nowak', slug: 'kn.katarzyna', confirm: false },
  { name: 'Liam Byrne', slug: 'lb.liam', confirm: false },
  { name: 'Nadia Petrova', slug: 'np.nadia', confirm: false },
  { name: 'Oliver Smith', slug: 'os.oliver', confirm: false },
  { name: 'Priya Raman', slug: 'pr.priya', confirm: false },
  { name: 'Rosa Lopez', slug: 'rl.rosa', confirm: false },
  { name: 'Sven Olsen', slug: 'so.sven', confirm: false },
  { name: 'Tatiana Volkova', slug: 'tv.tatiana', confirm: false },
  { name: 'Uma Iyer', slug: 'ui.uma', confirm: false },
  { name: 'Viktor Orlov', slug: 'vo.viktor', confirm: false },
  { name: 'Wen Li', slug: 'wl.wen', confirm: false },
  { name: 'Yuki Sato', slug: 'ys.yuki', confirm: false },
  { name: 'Zoe Adams', slug: 'za.zoe', confirm: false },
  { name: 'Алексей Смирнов', slug: 'as.alexey', confirm: false },
] as const

const adminName = 'Ada Admin'
/** Everyone on the server: the administrator and the people above. */
const accounts = seeded.length + 1

let server: OwnServer
let admin: Person
let people: Person[]

/** Signs up through the API (a new account, unconfirmed unless `confirm`); answers it. */
async function signUp(request: APIRequestContext, name: string, email: string, confirm: boolean): Promise<Person> {
  const response = await request.post(`${server.url}/api/auth/sign-up/email`, {
    headers: { Origin: server.url },
    data: { name, email, password },
  })
  expect(response.status(), await response.text()).toBe(200)
  const { user } = (await response.json()) as { user: Person }
  if (confirm) {
    const link = new URL(confirmPath(await waitForMail(email, subjects.confirm)), server.url)
    const token = encodeURIComponent(link.searchParams.get('token') ?? '')
    expect((await request.get(`${server.url}/api/auth/verify-email?token=${token}`)).status()).toBe(200)
  }
  return { id: user.id, name, email }
}

async function signIn(context: BrowserContext, email: string) {
  const response = await context.request.post(`${server.url}/api/auth/sign-in/email`, {
    headers: { Origin: server.url },
    data: { email, password },
  })
  expect(response.status(), await response.text()).toBe(200)
}

test.describe.configure({ mode: 'default' })

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000)
  // A tag of this run in every address: the mail server is shared with the other servers' tests.
  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  server = await startOwnServer({ env: { AUTH_RATE_LIMIT_SCALE: '100' } })
  const request = await playwright.request.newContext()
  try {
    admin = await signUp(request, adminName, `aa.admin.${run}@example.com`, true)
    people = []
    for (const { name, slug, confirm } of seeded) {
      people.push(await signUp(request, name, `${slug}.${run}@example.com`, confirm))
    }
  } finally {
    await request.dispose()
  }
})

test.afterAll(async () => {
  await server.stop()
})

function person(name: string): Person {
  const found = people.find((candidate) => candidate.name === name)
  if (!found) throw new Error(`no seeded person ${name}`)
  return found
}

/** The administrator's browser on the people table (at `search`, e.g. `?q=ab`). */
async function openTable(page: Page, context: BrowserContext, search = '') {
  await signIn(context, admin.email)
  await page.goto(`${server.url}/admin/users${search}`)
  await expect(mainHeading(page)).toHaveText('People')
}

const table = (page: Page) => page.getByRole('main').getByRole('table', { name: 'People' })
/** The body's rows (the header row has column headers, not cells). */
const rows = (page: Page) => table(page).getByRole('row').filter({ has: page.getByRole('cell') })
const rowLinks = (page: Page) => rows(page).getByRole('link')
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search people' })
const range = (page: Page) => page.getByRole('navigation', { name: 'Pages' }).getByText(/^\d+–\d+ of /)

async function names(page: Page): Promise<string[]> {
  return rowLinks(page).allTextContents()
}

test('search finds people by the start of an email and by a part of a name; no match says so', async ({
  page,
  context,
}) => {
  await openTable(page, context)
  await expect(rows(page)).toHaveCount(20)
  await expect(range(page)).toHaveText(`1–20 of ${accounts}`)
  await expect(page.getByText(/Fewer than 3 characters match the start/)).toBeVisible()

  // Two characters: the start of an email (or a name).
  await searchBox(page).fill('qz')
  await expect(page).toHaveURL(/[?&]q=qz(&|$)/)
  await expect(rowLinks(page)).toHaveText(['Quentin Zebrowski'])
  await expect(range(page)).toHaveText('1–1 of 1')

  // Three or more: anywhere in a name, whatever the case.
  await searchBox(page).fill('EBROW')
  await expect(rowLinks(page)).toHaveText(['Quentin Zebrowski'])
  await searchBox(page).fill('ebr')
  await expect(rowLinks(page)).toHaveText(['Quentin Zebrowski'])

  // The link opens the person's page.
  await expect(rowLinks(page).first()).toHaveAttribute('href', `/admin/users/${person('Quentin Zebrowski').id}`)

  await searchBox(page).fill('nobody-is-called-this')
  await expect(table(page).getByText('No matching data')).toBeVisible()
  await expect(rows(page)).toHaveCount(1)
  await expect(page.getByRole('navigation', { name: 'Pages' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Clear search and filters' }).click()
  await expect(searchBox(page)).toHaveValue('')
  await expect(rows(page)).toHaveCount(20)
  await expect(page).toHaveURL(`${server.url}/admin/users`)
})

test('filters narrow the list: administrators, unconfirmed, two-step, disabled', async ({ page, context }) => {
  await openTable(page, context)
  const main = page.getByRole('main')

  await main.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Administrator' })
  await expect(page).toHaveURL(/[?&]role=admin(&|$)/)
  await expect(rowLinks(page)).toHaveText([adminName])
  await expect(rows(page).first()).toContainText('Administrator')
  await main.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Any' })

  const unconfirmed = seeded.filter((entry) => !entry.confirm).length
  await main.getByRole('combobox', { name: 'Email confirmed' }).selectOption({ label: 'No' })
  await expect(page).toHaveURL(/[?&]confirmed=no(&|$)/)
  await expect(range(page)).toHaveText(`1–${Math.min(20, unconfirmed)} of ${unconfirmed}`)
  for (const row of await rows(page).all()) await expect(row).toContainText('Unconfirmed')
  await main.getByRole('combobox', { name: 'Email confirmed' }).selectOption({ label: 'Yes' })
  await expect(rows(page)).toHaveCount(accounts - unconfirmed)
  await expect(rows(page).filter({ hasText: 'Unconfirmed' })).toHaveCount(0)
  await main.getByRole('combobox', { name: 'Email confirmed' }).selectOption({ label: 'Any' })

  // Nobody here has two-step verification on.
  await main.getByRole('combobox', { name: 'Two-step verification' }).selectOption({ label: 'On' })
  await expect(table(page).getByText('No matching data')).toBeVisible()
  await main.getByRole('combobox', { name: 'Two-step verification' }).selectOption({ label: 'Any' })

  // An account disabled through the API shows under "Disabled: Yes", with its badge.
  const boris = person('Boris Pasternak')
  const disabled = await context.request.post(`${server.url}/api/admin/users/${boris.id}/disable`, {
    headers: { Origin: server.url },
  })
  expect(disabled.status(), await disabled.text()).toBe(200)
  await main.getByRole('combobox', { name: 'Disabled' }).selectOption({ label: 'Yes' })
  await expect(page).toHaveURL(/[?&]disabled=yes(&|$)/)
  await expect(rowLinks(page)).toHaveText([boris.name])
  await expect(rows(page).first()).toContainText('Disabled')
  await main.getByRole('combobox', { name: 'Disabled' }).selectOption({ label: 'No' })
  await expect(range(page)).toHaveText(`1–20 of ${accounts - 1}`)
  await expect(rowLinks(page).filter({ hasText: boris.name })).toHaveCount(0)
  const enabled = await context.request.post(`${server.url}/api/admin/users/${boris.id}/enable`, {
    headers: { Origin: server.url },
  })
  expect(enabled.status()).toBe(200)
})

test('sorting by email and by name changes the order; the sort is in the URL', async ({ page, context }) => {
  await openTable(page, context, '?pageSize=50')
  await expect(rows(page)).toHaveCount(accounts)
  const byEmail = [admin, ...people].sort((a, b) => (a.email < b.email ? -1 : 1)).map(({ name }) => name)

  const emailHeader = table(page).getByRole('columnheader', { name: 'Email' })
  await emailHeader.getByRole('button').click()
  await expect(page).toHaveURL(/[?&]sort=email(&|$)/)
  await expect(emailHeader).toHaveAttribute('aria-sort', 'ascending')
  await expect.poll(() => names(page)).toEqual(byEmail)
  await emailHeader.getByRole('button').click()
  await expect(page).toHaveURL(/[?&]sort=-email(&|$)/)
  await expect(emailHeader).toHaveAttribute('aria-sort', 'descending')
  await expect.poll(() => names(page)).toEqual([...byEmail].reverse())

  // The default order is the newest first: the last one made leads.
  await table(page).getByRole('columnheader', { name: 'Created' }).getByRole('button').click()
  await expect(page).toHaveURL(/[?&]sort=-createdAt(&|$)|\?pageSize=50$/)
  await expect(rowLinks(page).first()).toHaveText(seeded.at(-1)?.name ?? '')
})

test('pages: counts, next and last, rows per page; the state survives a reload', async ({ page, context }) => {
  await openTable(page, context)
  const pages = page.getByRole('navigation', { name: 'Pages' })
  await expect(range(page)).toHaveText(`1–20 of ${accounts}`)
  await expect(pages.getByText('Page 1 of 2')).toBeVisible()
  const firstPage = await names(page)

  await pages.getByRole('button', { name: 'Next page' }).click()
  await expect(page).toHaveURL(/[?&]page=2(&|$)/)
  await expect(range(page)).toHaveText(`21–${accounts} of ${accounts}`)
  await expect(rows(page)).toHaveCount(accounts - 20)
  const secondPage = await names(page)
  expect(secondPage.filter((name) => firstPage.includes(name))).toEqual([])
  // "Next" is off on the last page: focus moved to the table rather than to nowhere.
  await expect(pages.getByRole('button', { name: 'Next page' })).toBeDisabled()
  await expect(page.getByRole('region', { name: 'People' })).toBeFocused()

  await page.reload()
  await expect(range(page)).toHaveText(`21–${accounts} of ${accounts}`)
  await expect.poll(() => names(page)).toEqual(secondPage)

  await pages.getByRole('combobox', { name: 'Rows per page' }).selectOption('10')
  await expect(page).toHaveURL(/[?&]pageSize=10(&|$)/)
  await expect(page).not.toHaveURL(/[?&]page=/)
  await expect(range(page)).toHaveText(`1–10 of ${accounts}`)
  await pages.getByRole('button', { name: 'Last page' }).click()
  await expect(range(page)).toHaveText(`21–${accounts} of ${accounts}`)

  // A search and a filter come back after a reload too; defaults are left out of the URL.
  await searchBox(page).fill('gh')
  await page.getByRole('main').getByRole('combobox', { name: 'Email confirmed' }).selectOption({ label: 'Yes' })
  await expect
    .poll(() => Object.fromEntries(new URL(page.url()).searchParams))
    .toEqual({ pageSize: '10', q: 'gh', confirmed: 'yes' })
  await page.reload()
  await expect(searchBox(page)).toHaveValue('gh')
  await expect(page.getByRole('main').getByRole('combobox', { name: 'Email confirmed' })).toHaveValue('yes')
  await expect(rowLinks(page)).toHaveText(['Grace Hopper'])
})

test('by keyboard alone: Tab to the search, type, Tab to the person, Enter opens their page', async ({
  page,
  context,
}) => {
  await openTable(page, context)
  await expect(rows(page)).toHaveCount(20)
  await tabTo(page, searchBox(page))
  await page.keyboard.type('Dmitri')
  await expect(rowLinks(page)).toHaveText(['Dmitri Ivanov'])
  await tabTo(page, rowLinks(page).first())
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(`${server.url}/admin/users/${person('Dmitri Ivanov').id}`)
  await expectHeadingFocused(page, /Dmitri Ivanov/)
})

test('the command palette finds a person by email; Enter opens their page', async ({ page, context }) => {
  await openTable(page, context)
  const grace = person('Grace Hopper')
  await page.keyboard.press('Control+k')
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('combobox')).toBeFocused()
  await page.keyboard.type(grace.email)
  const option = dialog.getByRole('option', { name: new RegExp(grace.email.replace(/[.]/g, '\\.')) })
  await expect(option).toBeVisible()
  await expect(option).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(dialog).toHaveCount(0)
  await expect(page).toHaveURL(`${server.url}/admin/users/${grace.id}`)
  await expect(mainHeading(page)).toHaveText(/Grace Hopper/)
})

test('the command palette shows no People group for a search that finds nobody', async ({ page, context }) => {
  await openTable(page, context)
  await page.keyboard.press('Control+k')
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('combobox')).toBeFocused()
  await page.keyboard.type('zqxj nobody')
  await expect(dialog.getByText('No results found.')).toBeVisible()
  // Once the server has answered (the search pauses 250 ms before it asks).
  await expect(dialog.getByText('Searching people…')).toHaveCount(0)
  await expect(dialog.getByText('People', { exact: true })).toBeHidden()
  await expect(dialog.getByRole('option')).toHaveCount(0)
})

// One test per language and colour mode: four pages each, so none comes near its time limit.
for (const lang of interfaceLanguages) {
  for (const mode of colourModes) {
    test(`no WCAG violations on the people table, in ${lang === 'en' ? 'English' : 'Russian'}, ${mode} mode, wide and narrow`, async ({
      page,
      context,
    }) => {
      await signIn(context, admin.email)
      const report = new ViolationReport()
      await page.setViewportSize({ width: 1280, height: 900 })
      await prefer(page, mode, lang)
      await page.goto(`${server.url}/admin/users`)
      await settled(page, mode, lang)
      await expect(page.getByRole('main').getByRole('table').getByRole('link').first()).toBeVisible()
      await report.check(page, `${lang} ${mode}`)
      // With badges (unconfirmed), a filter and no match.
      await page.goto(`${server.url}/admin/users?confirmed=no&sort=name`)
      await settled(page, mode, lang)
      await report.check(page, `${lang} ${mode}, filtered`)
      await page.goto(`${server.url}/admin/users?q=nobody-is-called-this`)
      await settled(page, mode, lang)
      await expect(page.getByRole('main').getByText(lang === 'en' ? 'No matching data' : ru.ui.noMatch)).toBeVisible()
      await report.check(page, `${lang} ${mode}, no match`)
      await page.setViewportSize({ width: 390, height: 844 })
      await page.goto(`${server.url}/admin/users`)
      await settled(page, mode, lang)
      await report.check(page, `${lang} ${mode}, 390 px`)
      report.expectNone()
    })
  }
}

test('a signed-in non-administrator gets 403, from the page and from the API', async ({
  page,
  context,
  diagnostics,
}) => {
  // The router logs the error its guard threw.
  diagnostics.allowConsoleError(/Administrators only/)
  await signIn(context, person('Grace Hopper').email)
  await page.goto(`${server.url}/admin/users`)
  await expectErrorScreen(page, 403, 'Administrators only')
  const refused = await context.request.get(`${server.url}/api/admin/users`)
  expect(refused.status()).toBe(403)
})
