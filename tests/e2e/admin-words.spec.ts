import { readFileSync } from 'node:fs'
import type { BrowserContext, Locator, Page } from '@playwright/test'
import ru from '@/client/locales/ru'
import { partsOfSpeech } from '@/shared/words'
import { desktopUserAgent } from '../../playwright.config'
import { ViolationReport, prefer, quiet } from './helpers/a11y'
import { type OwnServer, type StorageState, startOwnAdminWorld } from './helpers/admin'
import { expect, failedResource, mainHeading, test, toasts } from './helpers/fixtures'

// The "Words" section of a level's page (/admin/language-levels/{id}): searching the A1 starter
// words, adding, editing (with a stale edit) and deleting one, live in a second tab; the CSV file
// exported, checked by a dry run and imported; the level's delete confirmation counting what goes
// with it; Russian and dark; axe on the section and every dialog.
// On a server of its own: the starter words are changed here, which the learners' practice of the
// other journeys must not see.

const HEADER = 'language,text,translation_en,translation_ru,example,part_of_speech'

let server: OwnServer
let admin: StorageState
let a1: number

test.describe.configure({ mode: 'default' })

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000)
  const world = await startOwnAdminWorld(browser, 'Wanda Words', { env: { AUTH_RATE_LIMIT_SCALE: '100' } })
  ;({ server, admin } = world)
  a1 = world.levels.find((level) => level.code === 'A1')?.id ?? 0
  expect(a1).toBeGreaterThan(0)
})

test.afterAll(async () => {
  await server.stop()
})

/** The administrator's session in `context`. */
const signIn = (context: BrowserContext) => context.addCookies(admin.cookies)

/** The A1 level's page, scrolled to its words (the section loads when it comes into view). */
async function openWords(page: Page, search = '', heading = 'Words') {
  await page.goto(`${server.url}/admin/language-levels/${a1}${search}`)
  await expect(mainHeading(page)).toContainText('A1')
  await expect(page.getByRole('heading', { level: 2, name: heading, exact: true })).toBeVisible()
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  await expect(page.getByRole('table')).toBeVisible()
}

const wordsTable = (page: Page, name = 'Words of this level') => page.getByRole('table', { name })
const rowOf = (page: Page, text: string) =>
  wordsTable(page).getByRole('row').filter({ has: page.getByRole('cell', { name: text, exact: true }) })
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search words' })
const dialog = (page: Page) => page.getByRole('dialog')

async function searchFor(page: Page, text: string) {
  await searchBox(page).fill(text)
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text)}(&|$)`))
}

/** Fills the word form (the dialog open). */
async function fillWord(form: Locator, values: { text?: string; en?: string; ru?: string; example?: string; part?: string }) {
  if (values.text !== undefined) await form.getByRole('textbox', { name: 'Word or phrase' }).fill(values.text)
  if (values.en !== undefined) await form.getByRole('textbox', { name: 'Translation (English)' }).fill(values.en)
  if (values.ru !== undefined) await form.getByRole('textbox', { name: 'Translation (Russian)' }).fill(values.ru)
  if (values.example !== undefined) await form.getByRole('textbox', { name: 'Example' }).fill(values.example)
  if (values.part !== undefined) await form.getByRole('combobox', { name: 'Part of speech' }).selectOption({ label: values.part })
}

test('an administrator searches the A1 words, adds, edits and deletes one; a second tab sees each change', async ({
  page,
  context,
  browser,
  diagnostics,
}) => {
  test.setTimeout(90_000)
  diagnostics.allowConsoleError(failedResource(409))
  await signIn(context)
  const axe = new ViolationReport()
  await openWords(page)
  await expect(wordsTable(page).getByRole('row')).toHaveCount(51)
  await expect(page.getByText('1–50 of 97')).toBeVisible()
  await axe.check(page, 'words section')

  // Search lives in the URL.
  await searchFor(page, 'house')
  await expect(rowOf(page, 'house')).toBeVisible()
  await expect(rowOf(page, 'house')).toContainText('a building where people live')
  await expect(rowOf(page, 'house')).toContainText('дом')
  await expect(rowOf(page, 'house')).toContainText('Noun')

  // A second window (its own focus), searching for the word about to be added.
  const otherContext = await browser.newContext({ userAgent: desktopUserAgent })
  await signIn(otherContext)
  const other = await otherContext.newPage()
  await openWords(other, '?q=kettle')
  await expect(other.getByText('No matching data')).toBeVisible()

  // Add: the shared schema checks the form first.
  await page.getByRole('button', { name: 'Add word' }).click()
  await expect(dialog(page)).toBeVisible()
  await expect(dialog(page).getByRole('heading', { name: 'Add a word' })).toBeVisible()
  await expect(dialog(page).getByRole('textbox', { name: 'Word or phrase' })).toBeFocused()
  await dialog(page).getByRole('button', { name: 'Add word' }).click()
  await expect(dialog(page).getByRole('textbox', { name: 'Word or phrase' })).toHaveAttribute('aria-invalid', 'true')
  await axe.check(page, 'add word dialog, with errors')
  await fillWord(dialog(page), { text: 'kettle', en: 'a pot to boil water in', ru: 'чайник', example: 'Put the kettle on.', part: 'Noun' })
  await dialog(page).getByRole('button', { name: 'Add word' }).click()
  await expect(dialog(page)).toBeHidden()
  await expect(toasts(page)).toContainText('Word “kettle” added')
  await expect(page.getByRole('button', { name: 'Add word' })).toBeFocused()
  // The other tab hears it.
  await expect(rowOf(other, 'kettle')).toContainText('чайник')

  // A duplicate (same spelling and part of speech) is refused on the field.
  await page.getByRole('button', { name: 'Add word' }).click()
  await fillWord(dialog(page), { text: 'House', en: 'again', ru: 'снова', part: 'Noun' })
  await dialog(page).getByRole('button', { name: 'Add word' }).click()
  await expect(dialog(page).getByText('A word with this spelling and part of speech already exists, in this level or another.')).toBeVisible()
  await dialog(page).getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog(page)).toBeHidden()

  // Edit.
  await searchFor(page, 'kettle')
  await rowOf(page, 'kettle').getByRole('button', { name: 'Edit kettle' }).click()
  await expect(dialog(page).getByRole('heading', { name: 'Edit “kettle”' })).toBeVisible()
  await expect(dialog(page).getByRole('textbox', { name: 'Word or phrase' })).toHaveValue('kettle')
  await expect(dialog(page).getByRole('combobox', { name: 'Part of speech' })).toHaveValue('noun')
  await axe.check(page, 'edit word dialog')
  await fillWord(dialog(page), { ru: 'электрический чайник' })
  await dialog(page).getByRole('button', { name: 'Save changes' }).click()
  await expect(toasts(page)).toContainText('Word “kettle” saved')
  await expect(rowOf(page, 'kettle')).toContainText('электрический чайник')
  await expect(rowOf(other, 'kettle')).toContainText('электрический чайник')
  await expect(rowOf(page, 'kettle').getByRole('button', { name: 'Edit kettle' })).toBeFocused()

  // A stale edit: the other tab saves first; this one is refused and offers the current version.
  await rowOf(page, 'kettle').getByRole('button', { name: 'Edit kettle' }).click()
  await fillWord(dialog(page), { example: 'The kettle is boiling.' })
  await rowOf(other, 'kettle').getByRole('button', { name: 'Edit kettle' }).click()
  await fillWord(dialog(other), { en: 'a container for boiling water' })
  await dialog(other).getByRole('button', { name: 'Save changes' }).click()
  await expect(dialog(other)).toBeHidden()
  await dialog(page).getByRole('button', { name: 'Save changes' }).click()
  await expect(dialog(page).getByText('Someone else changed this word')).toBeVisible()
  await axe.check(page, 'edit word dialog, stale')
  await dialog(page).getByRole('button', { name: 'Reload' }).click()
  await expect(dialog(page).getByRole('textbox', { name: 'Translation (English)' })).toHaveValue('a container for boiling water')
  await expect(dialog(page).getByText('Someone else changed this')).toHaveCount(0)
  await expect(dialog(page).getByRole('textbox', { name: 'Example' })).toHaveValue('Put the kettle on.')
  await dialog(page).getByRole('button', { name: 'Cancel' }).click()

  // Delete, confirmed.
  await rowOf(page, 'kettle').getByRole('button', { name: 'Delete kettle' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete the word “kettle”?' })
  await expect(confirm).toBeVisible()
  await axe.check(page, 'delete word dialog')
  await confirm.getByRole('button', { name: 'Delete word' }).click()
  await expect(toasts(page)).toContainText('Word “kettle” deleted')
  await expect(rowOf(page, 'kettle')).toHaveCount(0)
  await expect(page.getByText('No matching data')).toBeVisible()
  await expect(rowOf(other, 'kettle')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Add word' })).toBeFocused()
  await page.getByRole('button', { name: 'Clear search' }).click()
  await expect(page).not.toHaveURL(/[?&]q=/)
  await expect(page.getByText('1–50 of 97')).toBeVisible()
  await otherContext.close()
  axe.expectNone()
})

test('the words file: export, a dry run that refuses a row and writes nothing, then an import', async ({
  page,
  context,
  diagnostics,
}) => {
  test.setTimeout(90_000)
  diagnostics.allowConsoleError(failedResource(400))
  diagnostics.allowConsoleError(failedResource(415))
  await signIn(context)
  const axe = new ViolationReport()
  await openWords(page)

  const downloading = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Export CSV' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe(`lingua-words-level-${a1}.csv`)
  const exported = readFileSync((await download.path()) ?? '', 'utf8').replace(/^\uFEFF/, '')
  const lines = exported.split(/\r?\n/).filter(Boolean)
  expect(lines[0]).toBe(HEADER)
  expect(lines).toHaveLength(98)

  const choose = (name: string, text: string, mimeType = 'text/csv') =>
    dialog(page).getByLabel('CSV file').setInputFiles({ name, mimeType, buffer: Buffer.from(text) })
  await page.getByRole('button', { name: 'Import CSV' }).click()
  await expect(dialog(page).getByRole('heading', { name: 'Import words from CSV' })).toBeVisible()
  await expect(dialog(page).getByText(HEADER)).toBeVisible()
  await axe.check(page, 'import dialog')

  // Not a CSV file (415), and a file without the header row (400): said in words.
  await choose('notes.json', '{"words": []}', 'application/json')
  await dialog(page).getByRole('button', { name: 'Check file' }).click()
  await expect(dialog(page).getByRole('alert')).toContainText('This is not a CSV file.')
  await choose('words.csv', 'text,translation\nkettle,чайник\n')
  await dialog(page).getByRole('button', { name: 'Check file' }).click()
  await expect(dialog(page).getByRole('alert')).toContainText('The file could not be read as CSV')

  // A dry run with a refused row (line 3: no such part of speech): its line and reason; no Import.
  const refused = [HEADER, 'en,teapot,a pot for tea,заварочный чайник,,noun', 'en,saucer,a small plate,блюдце,,thing'].join('\n')
  await choose('refused.csv', refused)
  await dialog(page).getByRole('button', { name: 'Check file' }).click()
  await expect(dialog(page).getByText('Dry run: nothing written yet · 2 rows')).toBeVisible()
  await expect(dialog(page).getByText('1 row is refused')).toBeVisible()
  const refusals = dialog(page).getByRole('table', { name: 'Refused rows' })
  await expect(refusals.getByRole('row')).toHaveCount(2)
  await expect(refusals.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('3')
  await expect(refusals.getByRole('row').nth(1).getByRole('cell').nth(1)).toHaveText(
    `part_of_speech must be one of: ${partsOfSpeech.join(', ')}.`,
  )
  await expect(dialog(page).getByRole('button', { name: 'Import' })).toHaveCount(0)
  await axe.check(page, 'import dialog, refused rows')
  const nothing = await context.request.get(`${server.url}/api/language-levels/${a1}/words?q=teapot`)
  expect(((await nothing.json()) as { total: number }).total).toBe(0)

  // A good file: the export with one translation changed and one word more.
  const changed = exported.replace('a building where people live,дом,', 'a building where people live,дом (здание),')
  expect(changed).not.toBe(exported)
  // In the file's own line ending: a reader takes the first line's as the file's.
  const newline = exported.includes('\r\n') ? '\r\n' : '\n'
  const good = `${changed.trimEnd()}${newline}en,teapot,a pot for tea,заварочный чайник,Tea is in the teapot.,noun${newline}`
  await choose('words.csv', good)
  await dialog(page).getByRole('button', { name: 'Check file' }).click()
  await expect(dialog(page).getByText('Dry run: nothing written yet · 98 rows')).toBeVisible()
  const counts = dialog(page).getByRole('definition')
  await expect(counts).toHaveText(['1', '1', '96'])
  await expect(dialog(page).getByText('Every row can be imported.')).toBeVisible()
  await axe.check(page, 'import dialog, dry run')
  await dialog(page).getByRole('button', { name: 'Import' }).click()
  await expect(dialog(page).getByText('Imported · 98 rows')).toBeVisible()
  await expect(toasts(page)).toContainText('Words imported: 1 added, 1 updated')
  await expect(page.getByText('1–50 of 98')).toBeVisible()
  await dialog(page).getByRole('button', { name: 'Close' }).click()
  await expect(dialog(page)).toBeHidden()
  await expect(page.getByRole('button', { name: 'Import CSV' })).toBeFocused()
  await searchFor(page, 'teapot')
  await expect(rowOf(page, 'teapot')).toContainText('заварочный чайник')
  await searchFor(page, 'house')
  await expect(rowOf(page, 'house')).toContainText('дом (здание)')
  axe.expectNone()
})

test('the delete-level confirmation says how many learners, statements and words go with the level', async ({ page, context }) => {
  await signIn(context)
  const usage = (await (await context.request.get(`${server.url}/api/language-levels/${a1}/usage`)).json()) as {
    statements: number
    words: number
  }
  expect(usage.words).toBeGreaterThanOrEqual(97)
  expect(usage.statements).toBeGreaterThan(0)
  await openWords(page)
  await page.getByRole('button', { name: 'Delete', exact: true }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete level A1?' })
  await expect(confirm.getByText('No learner has this level in their profile.')).toBeVisible()
  await expect(confirm.getByText(`${usage.statements} can-do statements will be deleted with it.`)).toBeVisible()
  await expect(confirm.getByText(`${usage.words} words will be deleted with it`)).toBeVisible()
  const axe = new ViolationReport()
  await axe.check(page, 'delete level dialog')
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toBeHidden()
  axe.expectNone()
})

test('in Russian and dark: the section, its dialogs and the level delete confirmation', async ({ page, context }) => {
  await prefer(context, 'dark', 'ru')
  await signIn(context)
  const axe = new ViolationReport()
  await openWords(page, '?q=house', ru.adminWords.title)
  const table = wordsTable(page, ru.adminWords.tableCaption)
  await expect(table.getByRole('columnheader', { name: ru.adminWords.translation })).toBeVisible()
  // The interface language's translation first.
  await expect(table.getByRole('row').nth(1)).toContainText('дом')
  await expect(table.getByRole('row').nth(1)).toContainText(ru.partsOfSpeech.noun)
  await quiet(page)
  await axe.check(page, 'ru dark: section')

  await page.getByRole('button', { name: ru.adminWords.add }).click()
  await expect(dialog(page).getByRole('heading', { name: ru.wordForm.addTitle })).toBeVisible()
  await dialog(page).getByRole('button', { name: ru.wordForm.add }).click()
  await expect(dialog(page).getByRole('textbox', { name: ru.wordForm.text })).toHaveAttribute('aria-invalid', 'true')
  await axe.check(page, 'ru dark: add word dialog')
  await dialog(page).getByRole('button', { name: ru.wordForm.cancel }).click()

  await page.getByRole('button', { name: ru.adminWords.importCsv }).click()
  await dialog(page)
    .getByLabel(ru.csvImport.file)
    .setInputFiles({ name: 'r.csv', mimeType: 'text/csv', buffer: Buffer.from(`${HEADER}\nen,xx,,,,\nen,yy,,,,\n`) })
  await dialog(page).getByRole('button', { name: ru.csvImport.check }).click()
  await expect(dialog(page).getByText('Отклонены 2 строки.', { exact: false })).toBeVisible()
  await axe.check(page, 'ru dark: import dialog, refused rows')
  await dialog(page).getByRole('button', { name: ru.csvImport.close }).click()

  await page.getByRole('button', { name: ru.levelForm.delete, exact: true }).click()
  const confirm = page.getByRole('alertdialog')
  await expect(confirm.getByText(/Вместе с ним будут удалены \d+ слов/)).toBeVisible()
  await expect(confirm.getByText(/утвержден/)).toBeVisible()
  await axe.check(page, 'ru dark: delete level dialog')
  await confirm.getByRole('button', { name: ru.adminLevels.cancel }).click()
  axe.expectNone()
})
