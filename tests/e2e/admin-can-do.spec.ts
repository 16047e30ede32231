import { readFileSync } from 'node:fs'
import type { APIRequestContext, Locator, Page } from '@playwright/test'
import type { AssessmentProgress, CanDoStatement, CanDoStatementList } from '@/shared/can-do'
import { prefer } from './helpers/a11y'
import { signedInAs } from './helpers/accounts'
import { type Level, type OwnServer, type StorageState, startOwnAdminWorld } from './helpers/admin'
import {
  accessibilityViolations,
  expect,
  expectErrorScreen,
  failedResource,
  mainHeading,
  test as base,
  toasts,
} from './helpers/fixtures'

// `/admin/can-do` (docs/product.md §10): the statements by level and skill — filters, search, add,
// edit (and a stale edit), reorder within a cell by keyboard, delete after a confirmation, a second
// tab following live — the CSV export and the import checked first; a learner is refused the page;
// the person page's latest self-assessment and the overview's "Learners by assessed level". On a
// server of its own: the statements are everyone's, and the self-assessment journeys on the shared
// server answer the seeded ones. Its first confirmed account is the administrator.

interface World {
  server: OwnServer
  admin: StorageState
  levels: Level[]
  /** A learner who has finished a self-assessment ("Not yet" to every statement). */
  learner: { id: string; name: string; state: StorageState }
}

/** Answers "Not yet" to everything asked until the assessment is finished. */
async function finishAssessment(request: APIRequestContext, origin: string): Promise<AssessmentProgress> {
  const headers = { Origin: origin }
  const started = await request.post('/api/me/assessment', { headers })
  expect(started.status(), await started.text()).toBe(201)
  let progress = (await started.json()) as AssessmentProgress
  for (let step = 0; progress.asking && step < 200; step++) {
    const answered = new Set(progress.answers.map((answer) => answer.statementId))
    const statementId = progress.asking.statementIds.find((id) => !answered.has(id)) ?? progress.asking.statementIds[0]
    const response = await request.post('/api/me/assessment/answers', { headers, data: { statementId, answer: 'not-yet' } })
    expect(response.status(), await response.text()).toBe(200)
    progress = (await response.json()) as AssessmentProgress
  }
  expect(progress.result).not.toBeNull()
  return progress
}

const test = base.extend<{ world: World }, { ownWorld: World }>({
  ownWorld: [
    async ({ browser }, use) => {
      const { server, admin, levels } = await startOwnAdminWorld(browser, 'Cato Admin')
      try {
        const learnerContext = await browser.newContext({ baseURL: server.url })
        const name = 'Lena Learner'
        await signedInAs(learnerContext, server.url, name)
        await finishAssessment(learnerContext.request, server.url)
        const me = (await (await learnerContext.request.get('/api/auth/get-session')).json()) as { user: { id: string } }
        const state = await learnerContext.storageState()
        await learnerContext.close()
        await use({ server, admin, levels, learner: { id: me.user.id, name, state } })
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

// In order, in one worker: the journeys change the statements the next ones read.
test.describe.configure({ mode: 'default' })

const levelNamed = (world: World, code: string): Level => {
  const level = world.levels.find((candidate) => candidate.code === code)
  if (!level) throw new Error(`no level ${code}`)
  return level
}

/** The list of one level's statements of one skill ("A1 · Reading"). */
const cell = (page: Page, code: string, skill: string) =>
  page.getByRole('list', { name: new RegExp(`^${code}\\b.* ${skill}$`) })
const rowOf = (list: Locator, text: string) => list.getByRole('listitem').filter({ hasText: text })

async function statements(request: APIRequestContext, query = ''): Promise<CanDoStatement[]> {
  const response = await request.get(`/api/admin/can-do-statements${query}`)
  expect(response.status()).toBe(200)
  return ((await response.json()) as CanDoStatementList).items
}

test('an administrator filters, searches, adds, edits, reorders and deletes statements; another tab follows', async ({
  page,
  context,
  world,
  diagnostics,
}) => {
  diagnostics.allowConsoleError(failedResource(409))
  const a1 = levelNamed(world, 'A1')
  await page.goto('/admin/can-do')
  await expect(mainHeading(page)).toHaveText('Can-do statements')
  await expect(page).toHaveTitle(/^Can-do statements · /)
  const nav = page.getByRole('navigation', { name: 'Administration' })
  await expect(nav.getByRole('link', { name: 'Can-do statements' })).toHaveAttribute('aria-current', 'page')
  // The section comes after "Language levels".
  await expect(nav.getByRole('link')).toHaveText(['Overview', 'People', 'Language levels', 'Can-do statements', 'Recent changes'])
  // Every level's section, each skill's list: the seed has three per skill and level.
  await expect(page.getByRole('heading', { level: 2, name: /^A1\b/ })).toContainText('15 statements')
  await expect(cell(page, 'A1', 'Reading').getByRole('listitem')).toHaveCount(3)
  expect(await accessibilityViolations(page)).toEqual([])

  // Filters by level and skill, kept in the URL.
  await page.getByRole('combobox', { name: 'Level' }).selectOption({ label: `A1 · ${a1.name}` })
  await expect(page).toHaveURL(new RegExp(`[?&]level=${a1.id}(&|$)`))
  await page.getByRole('combobox', { name: 'Skill' }).selectOption({ label: 'Reading' })
  await expect(page).toHaveURL(/[?&]skill=reading(&|$)/)
  await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveCount(1)
  await expect(page.getByRole('main').getByRole('heading', { level: 3 })).toHaveText(['Reading'])
  await expect(cell(page, 'A1', 'Reading').getByRole('listitem')).toHaveCount(3)
  // The level's count, and the toolbar's.
  await expect(page.getByText('3 statements', { exact: true })).toHaveCount(2)

  // A second tab on the same filtered page.
  const other = await context.newPage()
  await other.goto(page.url())
  await expect(cell(other, 'A1', 'Reading').getByRole('listitem')).toHaveCount(3)
  await page.bringToFront()

  // Add: the dialog starts on the filtered level and skill, checks the texts with the shared schema.
  await page.getByRole('button', { name: 'New statement' }).click()
  const dialog = page.getByRole('dialog', { name: 'New statement' })
  await expect(dialog.getByRole('combobox', { name: 'Level' })).toHaveValue(String(a1.id))
  await expect(dialog.getByRole('combobox', { name: 'Skill' })).toHaveValue('reading')
  await dialog.getByRole('button', { name: 'Add statement' }).click()
  await expect(dialog.getByRole('textbox', { name: 'English text' })).toHaveAttribute('aria-invalid', 'true')
  await expect(dialog.getByRole('textbox', { name: 'Russian text' })).toHaveAttribute('aria-invalid', 'true')
  expect(await accessibilityViolations(page)).toEqual([])
  const english = 'I can read a bus timetable'
  await dialog.getByRole('textbox', { name: 'English text' }).fill(english)
  await dialog.getByRole('textbox', { name: 'Russian text' }).fill('Я могу прочитать расписание автобусов')
  await dialog.getByRole('button', { name: 'Add statement' }).click()
  await expect(toasts(page)).toContainText('Statement added')
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('button', { name: 'New statement' })).toBeFocused()
  const list = cell(page, 'A1', 'Reading')
  await expect(list.getByRole('listitem')).toHaveCount(4)
  await expect(list.getByRole('listitem').last()).toContainText(english)
  // The other tab hears of it.
  await expect(rowOf(cell(other, 'A1', 'Reading'), english)).toBeVisible()

  // The search reads both languages; moving is not offered while it shows part of a cell.
  await page.getByRole('searchbox', { name: 'Search statements' }).fill('автобусов')
  await expect(page).toHaveURL(/[?&]q=/)
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(page.getByText('Clear the search to change the order.')).toBeVisible()
  await expect(list.getByRole('button', { name: 'Move up' })).toHaveCount(0)
  await page.getByRole('searchbox', { name: 'Search statements' }).fill('no such words at all')
  await expect(page.getByText('No matching data')).toBeVisible()
  await page.getByRole('searchbox', { name: 'Search statements' }).fill('')
  await expect(page).not.toHaveURL(/[?&]q=/)
  await expect(list.getByRole('listitem')).toHaveCount(4)

  // Edit.
  const added = (await statements(page.request, `?q=${encodeURIComponent(english)}`))[0]
  if (!added) throw new Error('the added statement is missing')
  await rowOf(list, english).getByRole('button', { name: 'Edit' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit statement' })
  await expect(edit).toContainText('A1 · Reading')
  const edited = 'I can read a train timetable'
  await edit.getByRole('textbox', { name: 'English text' }).fill(edited)
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(toasts(page)).toContainText('Changes saved')
  await expect(rowOf(list, edited)).toBeVisible()

  // A stale edit: someone else saved first; Reload loads their version.
  await rowOf(list, edited).getByRole('button', { name: 'Edit' }).click()
  await edit.getByRole('textbox', { name: 'English text' }).fill('Mine, typed second')
  const theirs = await page.request.patch(`/api/admin/can-do-statements/${added.id}`, {
    headers: { Origin: world.server.url },
    data: { text: { en: 'Theirs, saved first' }, version: added.version + 1 },
  })
  expect(theirs.status(), await theirs.text()).toBe(200)
  await edit.getByRole('button', { name: 'Save changes' }).click()
  const conflict = edit.getByRole('alert').filter({ hasText: 'Someone else changed this statement' })
  await expect(conflict).toBeVisible()
  expect(await accessibilityViolations(page)).toEqual([])
  await edit.getByRole('button', { name: 'Reload' }).click()
  await expect(edit.getByRole('textbox', { name: 'English text' })).toHaveValue('Theirs, saved first')
  // Reloaded: no word of the refusal is left.
  await expect(edit.getByRole('alert')).toHaveCount(0)
  await edit.getByRole('button', { name: 'Cancel' }).click()
  await expect(edit).toBeHidden()

  // Reorder by keyboard: the last goes up one; focus stays on its button, the move is announced
  // and saved.
  const moveUp = rowOf(list, 'Theirs, saved first').getByRole('button', { name: 'Move up' })
  await moveUp.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('status').filter({ hasText: 'Moved to position 3 of 4.' })).toBeAttached()
  await expect(list.getByRole('listitem').nth(2)).toContainText('Theirs, saved first')
  await expect(rowOf(list, 'Theirs, saved first').getByRole('button', { name: 'Move up' })).toBeFocused()
  await expect
    .poll(async () => (await statements(page.request, `?levelId=${a1.id}&skill=reading`)).map((item) => item.id).indexOf(added.id))
    .toBe(2)
  // At the top, "Move up" is off (but stays focusable).
  const first = list.getByRole('listitem').first()
  await expect(first.getByRole('button', { name: 'Move up' })).toHaveAttribute('aria-disabled', 'true')
  await expect(rowOf(cell(other, 'A1', 'Reading'), 'Theirs, saved first')).toBeVisible()
  await expect(cell(other, 'A1', 'Reading').getByRole('listitem').nth(2)).toContainText('Theirs, saved first')

  // Delete, after a confirmation naming the statement.
  await rowOf(list, 'Theirs, saved first').getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete this statement?' })
  await expect(confirm).toContainText('Theirs, saved first')
  expect(await accessibilityViolations(page)).toEqual([])
  await confirm.getByRole('button', { name: 'Delete statement' }).click()
  await expect(toasts(page)).toContainText('Statement deleted')
  await expect(list.getByRole('listitem')).toHaveCount(3)
  await expect(mainHeading(page)).toBeFocused()
  await expect(cell(other, 'A1', 'Reading').getByRole('listitem')).toHaveCount(3)
  await other.close()
})

test('the CSV export downloads every statement; an import is checked first, names refused rows, and writes only a good file', async ({
  page,
  diagnostics,
}) => {
  diagnostics.allowConsoleError(failedResource(415))
  await page.goto('/admin/can-do')
  const downloading = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Export CSV' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^lingua-can-do-statements-\d{4}-\d{2}-\d{2}\.csv$/)
  const exported = readFileSync((await download.path()) ?? '', 'utf8')
  expect(exported.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe('level,skill,position,text_en,text_ru')
  expect(exported).toContain('A1,reading,')

  const before = (await statements(page.request)).length
  await page.getByRole('button', { name: 'Import CSV' }).click()
  const dialog = page.getByRole('dialog', { name: 'Import statements from CSV' })
  await expect(dialog).toContainText('level, skill, position, text_en, text_ru')
  const file = dialog.getByLabel('CSV file')

  // Not a CSV file: said in words.
  await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
  await dialog.getByRole('button', { name: 'Check file' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('This is not a CSV file. Choose a file ending in .csv.')

  // A refused row: its line and reason, and nothing written.
  const header = 'level,skill,position,text_en,text_ru'
  const bad = [header, 'A2,writing,,I can write a postcard from a trip,Я могу написать открытку из поездки', 'Z9,writing,,I can write a poem,Я могу написать стихотворение'].join('\n')
  await file.setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) })
  await dialog.getByRole('button', { name: 'Check file' }).click()
  await expect(dialog).toContainText('2 rows read.')
  await expect(dialog).toContainText('1 row is refused. Nothing is imported until the file is fixed.')
  const refused = dialog.getByRole('table', { name: 'Refused rows' })
  await expect(refused.getByRole('row')).toHaveCount(2)
  await expect(refused.getByRole('row').nth(1)).toContainText('3')
  await expect(refused.getByRole('row').nth(1)).toContainText('No level has the code “Z9”.')
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toHaveCount(0)
  expect(await accessibilityViolations(page)).toEqual([])
  expect((await statements(page.request)).length).toBe(before)

  // A good file: the check says what it would add, then Import writes it.
  const good = [header, 'A2,writing,,I can write a postcard from a trip,Я могу написать открытку из поездки', 'B1,listening,,I can follow a podcast about cooking,Я понимаю подкаст о кулинарии'].join('\n')
  await file.setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from(good) })
  await dialog.getByRole('button', { name: 'Check file' }).click()
  await expect(dialog).toContainText('2 rows read. Importing adds 2 statements.')
  expect((await statements(page.request)).length).toBe(before)
  await dialog.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(toasts(page)).toContainText('2 statements imported')
  await expect(dialog).toBeHidden()
  expect((await statements(page.request)).length).toBe(before + 2)
  await expect(rowOf(cell(page, 'B1', 'Listening'), 'I can follow a podcast about cooking')).toBeVisible()
})

test('a learner gets the error screen for /admin/can-do, as for every admin page', async ({
  page,
  context,
  world,
  diagnostics,
}) => {
  // The router logs the error its guard threw.
  diagnostics.allowConsoleError(/Administrators only/)
  diagnostics.allowConsoleError(failedResource(403))
  await context.clearCookies()
  await context.addCookies(world.learner.state.cookies)
  await page.goto('/admin/can-do')
  await expectErrorScreen(page, 403, 'Administrators only')
  await expect(page.getByRole('navigation', { name: 'Administration' })).toHaveCount(0)
  expect((await context.request.get('/api/admin/can-do-statements')).status()).toBe(403)
})

test('in Russian and dark mode, on a phone, the page and its dialogs have no WCAG violations', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await prefer(page, 'dark', 'ru')
  await page.goto('/admin/can-do?skill=writing')
  await expect(mainHeading(page)).toHaveText('Утверждения «Я умею»')
  await expect(page.getByRole('list', { name: /^A1\b.* Письмо$/ })).toBeVisible()
  expect(await accessibilityViolations(page)).toEqual([])

  await page.getByRole('button', { name: 'Новое утверждение' }).click()
  const add = page.getByRole('dialog', { name: 'Новое утверждение' })
  await add.getByRole('button', { name: 'Добавить утверждение' }).click()
  await expect(add.getByRole('textbox', { name: 'Текст на английском' })).toHaveAttribute('aria-invalid', 'true')
  expect(await accessibilityViolations(page)).toEqual([])
  await add.getByRole('button', { name: 'Отмена' }).click()

  await page.getByRole('button', { name: 'Импорт из CSV' }).click()
  const importing = page.getByRole('dialog', { name: 'Импорт утверждений из CSV' })
  await importing.getByLabel('Файл CSV').setInputFiles({
    name: 'bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('level,skill,position,text_en,text_ru\nA1,singing,,I can sing,Я умею петь'),
  })
  await importing.getByRole('button', { name: 'Проверить файл' }).click()
  await expect(importing).toContainText('Отклонена 1 строка.')
  // Why, in Russian too: the server's problems, said in the interface language.
  await expect(importing.getByRole('table', { name: 'Отклонённые строки' }).getByRole('row').nth(1)).toHaveText(
    '2В столбце skill допустимо одно из значений: listening, reading, spoken-interaction, spoken-production, writing.',
  )
  expect(await accessibilityViolations(page)).toEqual([])
  await importing.getByRole('button', { name: 'Закрыть' }).click()

  await page.getByRole('list', { name: /^A1\b.* Письмо$/ }).getByRole('button', { name: 'Удалить' }).first().click()
  await expect(page.getByRole('alertdialog', { name: 'Удалить это утверждение?' })).toBeVisible()
  expect(await accessibilityViolations(page)).toEqual([])
  await page.getByRole('button', { name: 'Отмена' }).click()
})

test("a person's page shows their latest self-assessment, and the overview counts learners by assessed level", async ({
  page,
  world,
}) => {
  await page.goto(`/admin/users/${world.learner.id}`)
  await expect(mainHeading(page)).toHaveText(world.learner.name)
  const result = page.getByRole('region', { name: 'Self-assessment' })
  await expect(result).toContainText('Overall: Below A1')
  await expect(result).toContainText(/Taken \w+ \d{1,2}, \d{4}/)
  await expect(result.getByRole('table', { name: 'Levels by skill' }).getByRole('row')).toHaveCount(5)
  await expect(result.getByRole('row', { name: 'Spoken interaction Below A1' })).toBeVisible()
  expect(await accessibilityViolations(page)).toEqual([])

  // The administrator has taken none.
  const me = (await (await page.request.get('/api/auth/get-session')).json()) as { user: { id: string } }
  await page.goto(`/admin/users/${me.user.id}`)
  await expect(page.getByRole('region', { name: 'Self-assessment' })).toContainText('No self-assessment yet')

  await page.goto('/admin')
  const chart = page.getByRole('region', { name: 'Learners by assessed level' })
  await expect(chart).toContainText('1 learner is below the first level.')
  await chart.getByRole('button', { name: 'Show as table' }).click()
  const table = chart.getByRole('table', { name: 'Learners by assessed level' })
  await expect(table.getByRole('row', { name: /^Below Below the first level 1$/ })).toBeVisible()
  await expect(table.getByRole('row', { name: /^A1 / })).toContainText('0')
  expect(await accessibilityViolations(page)).toEqual([])
})
