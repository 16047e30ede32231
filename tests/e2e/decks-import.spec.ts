import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { BrowserContext, Locator, Page } from '@playwright/test'
import yazl from 'yazl'
import type { Deck, DeckList, DeckWordPage } from '@/shared/decks'
import type { ImportJob } from '@/shared/imports'
import type { PracticeToday } from '@/shared/practice'
import ru from '@/client/locales/ru'
import { type PackageSpec, stock, writeAnkiPackage } from '../helpers/anki-package'
import { signedInAs } from './helpers/accounts'
import {
  type InterfaceLanguage,
  ViolationReport,
  colourModes,
  expectFieldError,
  interfaceLanguages,
  prefer,
  press,
  quiet,
  settled,
  tabTo,
} from './helpers/a11y'
import { middayZone } from './helpers/clock'
import { expect, mainHeading, test } from './helpers/fixtures'

// "Import" on /decks (docs/product.md §12): a real Anki package (two decks, a picture, a review
// history, a note that cannot be kept) imported through the dialog, followed to its result, its
// decks listed, opened and practised (the picture on the card's front; an answer given offline
// sent once back online); a CSV file into a chosen deck; files refused before and after they are
// sent; axe in both languages and colour modes; the dialog by keyboard alone.

test.use({ timezoneId: middayZone })

const DAY = 86_400
/** A 1×1 PNG. */
const png = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b3a1f40000000049454e44ae426082',
  'hex',
)

/**
 * Anki 2.1.50+'s format: "Spanish" (a basic note whose front has a picture) and "Spanish::Food"
 * (a note asked both ways; a note learnt in Anki, reviewed twice and due in 3 days); a note with an
 * empty front, which is skipped.
 */
function spanishPackage(): PackageSpec {
  const created = Math.floor(Date.now() / 1000 / DAY) * DAY - 30 * DAY
  return {
    format: 'anki21b',
    created,
    decks: [
      { id: 1, name: 'Default' },
      { id: 100, name: 'Spanish' },
      { id: 101, name: 'Spanish::Food' },
    ],
    noteTypes: [stock.basic, stock.reversed],
    notes: [
      { id: 1, guid: 'g-sol', noteTypeId: stock.basic.id, fields: ['el sol<img src="sun.png">', 'the sun'] },
      { id: 2, guid: 'g-comer', noteTypeId: stock.reversed.id, fields: ['comer', 'to eat'] },
      { id: 3, guid: 'g-pan', noteTypeId: stock.basic.id, fields: ['el pan', 'bread'], tags: ['food'] },
      { id: 4, guid: 'g-empty', noteTypeId: stock.basic.id, fields: ['', 'nothing in front'] },
    ],
    cards: [
      { id: 10, noteId: 1, deckId: 100, type: 0, queue: 0, due: 1 },
      { id: 20, noteId: 2, deckId: 101, ordinal: 0, type: 0, queue: 0, due: 2 },
      { id: 21, noteId: 2, deckId: 101, ordinal: 1, type: 0, queue: 0, due: 3 },
      { id: 30, noteId: 3, deckId: 101, type: 2, queue: 2, due: 33, interval: 10, factor: 2500, reps: 2, lapses: 0 },
      { id: 40, noteId: 4, deckId: 100, type: 0, queue: 0, due: 4 },
    ],
    reviews: [
      { id: (created + 10 * DAY) * 1000, cardId: 30, ease: 3, interval: 1, lastInterval: 0, factor: 2500, time: 3000, type: 0 },
      { id: (created + 20 * DAY) * 1000, cardId: 30, ease: 3, interval: 10, lastInterval: 1, factor: 2500, time: 3000, type: 1 },
    ],
    media: [{ name: 'sun.png', data: png }],
  }
}

let folder: string
test.beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'lingua-e2e-import-'))
})
test.afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

/** The package written to a file, as a learner has it on their disk. */
async function spanishFile(): Promise<string> {
  const file = path.join(folder, `spanish-${Math.random().toString(36).slice(2)}.apkg`)
  await writeAnkiPackage(file, spanishPackage())
  return file
}

/** A zip that is no Anki package (photos in a zip, named as a package). */
async function zipOfPhotos(): Promise<Buffer> {
  const zip = new yazl.ZipFile()
  zip.addBuffer(png, 'photo-1.png')
  zip.addBuffer(Buffer.from('holiday photos'), 'readme.txt')
  zip.end()
  const chunks: Buffer[] = []
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

const csv = 'language,text,translation_en,translation_ru,example,part_of_speech\nes,hola,hello,привет,,interjection\nes,adiós,goodbye,пока,,\nes,,missing,,,\n'

/** A new learner (of English unless told, no level): practises up to 10 new cards a day. */
async function learner(context: BrowserContext, baseURL: string, name: string, language = 'en') {
  await signedInAs(context, baseURL, name)
  const profile = await context.request.put('/api/me/profile', {
    headers: { Origin: baseURL },
    data: { language, currentLevelId: null, targetLevelId: null },
  })
  expect(profile.status(), await profile.text()).toBe(200)
  const settings = await context.request.put('/api/me/practice/settings', {
    headers: { Origin: baseURL },
    data: { newWordsPerDay: 10, dailyGoal: 20, timeZone: middayZone, ways: ['flashcard'] },
  })
  expect(settings.status(), await settings.text()).toBe(200)
}

async function createDeck(context: BrowserContext, baseURL: string, name: string, language = 'es'): Promise<Deck> {
  const response = await context.request.post('/api/me/decks', { headers: { Origin: baseURL }, data: { name, language } })
  expect(response.status(), await response.text()).toBe(201)
  return (await response.json()) as Deck
}

/** An import through the API, waited for: the tests that start from imported decks. */
async function importedByApi(context: BrowserContext, baseURL: string, file: string): Promise<ImportJob> {
  const started = await context.request.post('/api/me/imports', {
    headers: { Origin: baseURL },
    multipart: { file: { name: 'spanish.apkg', mimeType: 'application/octet-stream', buffer: await readFile(file) } },
  })
  expect(started.status(), await started.text()).toBe(202)
  const { id } = (await started.json()) as { id: string }
  let job: ImportJob | undefined
  await expect
    .poll(async () => {
      job = (await (await context.request.get(`/api/me/imports/${id}`)).json()) as ImportJob
      return job.status
    })
    .toBe('done')
  return job as ImportJob
}

const dialog = (page: Page) => page.getByRole('dialog')
/** A line shown in `scope` (not its copy for screen readers, the polite status). */
const shown = (scope: Locator, text: string | RegExp) =>
  scope.getByText(text, { exact: true }).and(scope.page().locator(':not([role="status"])'))
const chooseFile = (scope: Locator, name = 'File Choose a file') => scope.getByRole('button', { name })
const decksList = (page: Page) => page.getByRole('list', { name: 'Decks', exact: true })
const deckRow = (page: Page, name: string) =>
  decksList(page).getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) })

/** Chooses a file through the dialog's own button, as a learner does (the browser's file chooser). */
async function choose(page: Page, files: string | { name: string; mimeType: string; buffer: Buffer }, name?: string) {
  const chooser = page.waitForEvent('filechooser')
  await chooseFile(dialog(page), name).click()
  await (await chooser).setFiles(files)
}

test('a learner imports an Anki package, follows it to its result, opens its decks and practises a card with its picture', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000)
  await learner(context, baseURL ?? '', 'Ana Import', 'es')
  const file = await spanishFile()
  await page.goto('/decks')
  await expect(mainHeading(page)).toHaveText('Your decks')

  // "Import" beside "New deck": a file is required.
  await page.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(dialog(page)).toHaveAccessibleName('Import words')
  await dialog(page).getByRole('button', { name: 'Import', exact: true }).click()
  await expect(dialog(page).getByRole('alert')).toHaveText('Choose the file to import.')
  await expect(chooseFile(dialog(page))).toBeFocused()

  // A package: the language of its decks, the learner's by default (another may be chosen).
  await choose(page, file)
  await expect(dialog(page).getByText(path.basename(file))).toBeVisible()
  const language = dialog(page).getByRole('combobox', { name: 'Language of the new decks' })
  await expect(language).toHaveValue('es')
  await expect(language.locator('option:checked')).toHaveText('Spanish')
  await expect(dialog(page).getByRole('combobox', { name: 'Deck to import into' })).toHaveCount(0)
  await dialog(page).getByRole('button', { name: 'Import', exact: true }).click()

  // Its progress, then what it did, with links to its decks and the note it skipped.
  const result = shown(dialog(page), 'Imported 3 notes into 2 decks (2 reviews kept)')
  await expect(shown(dialog(page), /^(Waiting to start…|Reading the file…|Importing \d of 3 notes…)$/).or(result)).toBeVisible()
  await expect(result).toBeVisible({ timeout: 20_000 })
  // Said to a screen reader once, politely.
  await expect(dialog(page).locator('p.sr-only[role="status"]')).toHaveText('Imported 3 notes into 2 decks (2 reviews kept)')
  const intoDecks = dialog(page).getByRole('list', { name: 'Decks it went into' })
  await expect(intoDecks.getByRole('listitem')).toHaveCount(2)
  await expect(intoDecks.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Spanish', exact: true }) })).toContainText('1 card')
  await expect(intoDecks.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Spanish::Food' }) })).toContainText('3 cards')
  const skipped = dialog(page).getByText('1 note skipped', { exact: true })
  await expect(dialog(page).getByText('g-empty')).toBeHidden()
  await skipped.click()
  await expect(dialog(page).getByRole('listitem').filter({ hasText: 'g-empty' })).toHaveText('g-empty: its front or back is empty')

  // Closed: the page lists the new decks with their counts, and the import's line.
  await dialog(page).getByRole('button', { name: 'Close' }).click()
  await expect(dialog(page)).toBeHidden()
  await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeFocused()
  await expect(deckRow(page, 'Spanish')).toContainText('1 new · 0 due · 1 card')
  await expect(deckRow(page, 'Spanish')).toContainText('Spanish · ')
  await expect(deckRow(page, 'Spanish::Food')).toContainText('2 new · 0 due · 3 cards')
  const recent = page.getByRole('region', { name: 'Your imports' })
  await expect(recent).toContainText(`File “${path.basename(file)}”`)
  await expect(recent).toContainText('Imported 3 notes into 2 decks (2 reviews kept)')

  // One deck opened: its words.
  await page.getByRole('link', { name: 'Spanish::Food', exact: true }).first().click()
  await expect(mainHeading(page)).toHaveText('Spanish::Food')
  const words = page.getByRole('table', { name: 'Words of this deck' })
  await expect(words.getByRole('row').filter({ hasText: 'comer' })).toContainText('to eat')
  await expect(words.getByRole('row').filter({ hasText: 'el pan' })).toContainText('bread')

  // The other practised alone: its card's front shows the package's picture, served by the app.
  const list = (await (await context.request.get('/api/me/decks')).json()) as DeckList
  const spanish = list.decks.find((deck) => deck.name === 'Spanish') as Deck
  await page.goto(`/practice?deck=${spanish.id}`)
  await expect(page.getByRole('main').locator('#practice-word')).toHaveText('el sol')
  // The front as the package has it (CardField), before the answer is shown.
  await expect(page.getByRole('button', { name: 'Show answer' })).toBeVisible()
  const picture = page.getByRole('main').locator('img')
  await expect(picture).toHaveCount(1)
  await expect(picture).toHaveAttribute('src', /^\/api\/me\/media\/[\w-]+/)
  await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1)
})

test('a CSV file goes into the deck chosen; without a deck, the dialog offers to make one', async ({ page, context, baseURL }) => {
  test.setTimeout(90_000)
  await learner(context, baseURL ?? '', 'Carl Csv')
  await page.goto('/decks')
  await expect(mainHeading(page)).toHaveText('Your decks')

  // No deck yet: said so, with "New deck", which opens the deck form.
  await page.getByRole('button', { name: 'Import', exact: true }).click()
  await choose(page, { name: 'words.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  await expect(dialog(page)).toContainText('A CSV file goes into one of your decks, and you have none yet.')
  await dialog(page).getByRole('button', { name: 'New deck' }).click()
  await expect(dialog(page)).toHaveAccessibleName('New deck')
  await page.keyboard.press('Escape')
  await expect(dialog(page)).toBeHidden()

  const deck = await createDeck(context, baseURL ?? '', 'From a sheet')
  await createDeck(context, baseURL ?? '', 'Another deck')
  await page.reload()
  await page.getByRole('button', { name: 'Import', exact: true }).click()
  await choose(page, { name: 'words.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  await expect(dialog(page)).toContainText('language,text,translation_en,translation_ru,example,part_of_speech')
  await expect(dialog(page).getByRole('combobox', { name: 'Language of the new decks' })).toHaveCount(0)
  // The deck is required.
  const deckSelect = dialog(page).getByRole('combobox', { name: 'Deck to import into' })
  await dialog(page).getByRole('button', { name: 'Import', exact: true }).click()
  await expectFieldError(deckSelect, 'Choose the deck to import into.')
  await expect(deckSelect).toBeFocused()
  await deckSelect.selectOption({ label: 'From a sheet' })
  // "Check file" first: what it would add, change and keep, and the row it would skip, by its line.
  await expect(dialog(page)).toContainText('Check the file first to see what it would change')
  await dialog(page).getByRole('button', { name: 'Check file' }).click()
  await expect(dialog(page).getByRole('heading', { name: 'Checked, nothing imported yet · 3 rows' })).toBeVisible()
  await expect(dialog(page).getByRole('definition')).toHaveText(['2', '0', '0'])
  await expect(dialog(page).getByRole('term')).toHaveText(['Would be added', 'Would be changed', 'Left unchanged'])
  await expect(dialog(page)).toContainText('1 row would be skipped; the others can be imported:')
  const skippedRows = dialog(page).getByRole('table', { name: 'Rows that would be skipped' }).getByRole('row')
  await expect(skippedRows).toHaveText(['LineReason', '4text is empty. translation_ru is empty.'])
  // Another deck clears the check; nothing was written.
  await deckSelect.selectOption({ label: 'Another deck' })
  await expect(dialog(page).getByRole('table')).toHaveCount(0)
  expect(((await (await context.request.get(`/api/me/decks/${deck.id}/words`)).json()) as DeckWordPage).items).toEqual([])
  await deckSelect.selectOption({ label: 'From a sheet' })
  await dialog(page).getByRole('button', { name: 'Check file' }).click()
  await expect(skippedRows).toHaveCount(2)
  // Importing skips the row the check named.
  await dialog(page).getByRole('button', { name: 'Import', exact: true }).click()
  await expect(shown(dialog(page), 'Imported 2 notes into 1 deck (0 reviews kept)')).toBeVisible({ timeout: 20_000 })
  await expect(dialog(page).getByRole('list', { name: 'Decks it went into' })).toHaveText('From a sheet2 cards')
  await dialog(page).getByText('1 note skipped', { exact: true }).click()
  await expect(dialog(page).getByText(/^line 4: /)).toBeVisible()

  // A link of the result opens the deck, with its words.
  await dialog(page).getByRole('link', { name: 'From a sheet' }).click()
  await expect(mainHeading(page)).toHaveText('From a sheet')
  const words = (await (await context.request.get(`/api/me/decks/${deck.id}/words`)).json()) as DeckWordPage
  expect(words.items.map((word) => word.text).sort()).toEqual(['adiós', 'hola'])
  await expect(page.getByRole('table', { name: 'Words of this deck' }).getByRole('row').filter({ hasText: 'hola' })).toContainText('hello')
})

test('what is no Anki package or CSV file is refused: by its name before it is sent, by its contents after', async ({
  page,
  context,
  baseURL,
}) => {
  await learner(context, baseURL ?? '', 'Rita Refused')
  const posts: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/me/imports') posts.push(request.url())
  })
  await page.goto('/decks')
  await page.getByRole('button', { name: 'Import', exact: true }).click()

  // A PDF: refused here.
  await choose(page, { name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 not words') })
  await dialog(page).getByRole('button', { name: 'Import', exact: true }).click()
  await expect(dialog(page).getByRole('alert')).toHaveText('This file is not an Anki package or a CSV file')
  await expect(chooseFile(dialog(page))).toBeFocused()

  // Over 300 MB: refused before it is sent.
  await dialog(page).evaluate((element) => {
    const input = element.querySelector<HTMLInputElement>('input[type=file]')
    if (!input) throw new Error('no file input')
    const transfer = new DataTransfer()
    transfer.items.add(new File([new Uint8Array(300 * 1024 * 1024 + 1)], 'huge.apkg'))
    input.files = transfer.files
    input.dispatchEvent(new Event('change', { bubbles: true }))
  })
  await expect(dialog(page).getByText('huge.apkg')).toBeVisible()
  await dialog(page).getByRole('button', { name: 'Import', exact: true }).click()
  await expect(dialog(page).getByRole('alert')).toHaveText('This file is too large (at most 300 MB)')
  expect(posts).toEqual([])

  // A zip of photos named as a package: sent, and the import fails with the sentence.
  await choose(page, { name: 'photos.apkg', mimeType: 'application/octet-stream', buffer: await zipOfPhotos() })
  await dialog(page).getByRole('button', { name: 'Import', exact: true }).click()
  await expect(shown(dialog(page), 'This file is not an Anki package or a CSV file')).toBeVisible({ timeout: 20_000 })
  expect(posts).toHaveLength(1)
  await dialog(page).getByRole('button', { name: 'Close' }).click()
  await expect(page.getByRole('region', { name: 'Your imports' })).toContainText('This file is not an Anki package or a CSV file')
  // Nothing was stored.
  expect(((await (await context.request.get('/api/me/decks')).json()) as DeckList).decks).toEqual([])
})

test('a card of an imported deck answered offline is saved, and sent once back online', async ({ page, context, baseURL }) => {
  await learner(context, baseURL ?? '', 'Otto Offline')
  await importedByApi(context, baseURL ?? '', await spanishFile())
  const list = (await (await context.request.get('/api/me/decks')).json()) as DeckList
  const food = list.decks.find((deck) => deck.name === 'Spanish::Food') as Deck
  await page.goto(`/practice?deck=${food.id}`)
  await expect(page.getByRole('main').getByText('2 left', { exact: true })).toBeVisible()

  await context.setOffline(true)
  await expect(page.getByText('Offline — your answers will be saved')).toBeVisible()
  await page.keyboard.press('Space')
  await expect(page.getByRole('button', { name: /^Good/ })).toBeFocused()
  await page.keyboard.press('3')
  await expect(page.getByRole('main').getByText('1 left', { exact: true })).toBeVisible()
  await expect(page.getByText('1 answer waiting to be sent')).toBeVisible()
  const today = async () => ((await (await context.request.get('/api/me/practice/today')).json()) as PracticeToday).done
  expect(await today()).toBe(0)

  await context.setOffline(false)
  await expect(page.getByText('Back online — 1 answer saved')).toBeVisible()
  await expect.poll(today).toBe(1)
  // The deck's counts moved: one new card fewer.
  const after = (await (await context.request.get(`/api/me/decks/${food.id}`)).json()) as Deck
  expect(after.new).toBe(1)
})

/** The labels the accessibility tests press, in both interface languages. */
function labelsIn(lang: InterfaceLanguage) {
  const en = {
    title: 'Your decks',
    import: 'Import',
    chooseFile: 'File Choose a file',
    importNow: 'Import',
    result: 'Imported 3 notes into 2 decks (2 reviews kept)',
    skipped: '1 note skipped',
    close: 'Close',
    deck: 'Deck to import into',
    check: 'Check file',
    skippedRows: 'Rows that would be skipped',
  }
  if (lang === 'en') return en
  const t = ru.deckImport
  return {
    title: ru.decks.title,
    import: t.open,
    chooseFile: `${t.file} ${t.chooseFile}`,
    importNow: t.import,
    result: t.imported
      .replace('{notes}', t.notes.few.replace('{count}', '3'))
      .replace('{decks}', t.decks.few.replace('{count}', '2'))
      .replace('{reviews}', t.reviews.few.replace('{count}', '2')),
    skipped: t.skipped.one.replace('{count}', '1'),
    close: t.close,
    deck: t.deck,
    check: t.check,
    skippedRows: t.skippedCaption,
  } satisfies typeof en
}

for (const lang of interfaceLanguages) {
  for (const mode of colourModes) {
    test(`the import dialog and its result pass axe (${lang}, ${mode})`, async ({ page, context, baseURL }) => {
      test.setTimeout(90_000)
      const t = labelsIn(lang)
      await prefer(page, mode, lang)
      await learner(context, baseURL ?? '', `Axel Import ${lang} ${mode}`)
      const file = await spanishFile()
      const report = new ViolationReport()

      await page.goto('/decks')
      await expect(mainHeading(page)).toHaveText(t.title)
      await page.getByRole('button', { name: t.import, exact: true }).click()
      await expect(dialog(page)).toBeVisible()
      // Refused without a file: the field's error.
      await dialog(page).getByRole('button', { name: t.importNow, exact: true }).click()
      await expect(dialog(page).getByRole('alert')).toBeVisible()
      await quiet(page)
      await report.check(page, 'import dialog, no file')
      await choose(page, file, t.chooseFile)
      await quiet(page)
      await report.check(page, 'import dialog, a package chosen')
      await dialog(page).getByRole('button', { name: t.importNow, exact: true }).click()
      await expect(shown(dialog(page), t.result)).toBeVisible({ timeout: 20_000 })
      await dialog(page).getByText(t.skipped, { exact: true }).click()
      await quiet(page)
      await report.check(page, 'import dialog, its result')
      await dialog(page).getByRole('button', { name: t.close }).click()
      await expect(dialog(page)).toBeHidden()
      await expect(shown(page.getByRole('main'), t.result)).toBeVisible()
      await settled(page, mode, lang)
      await report.check(page, '/decks with an import')

      report.expectNone()
    })
  }
}

for (const lang of interfaceLanguages) {
  for (const mode of colourModes) {
    test(`a CSV file's check passes axe (${lang}, ${mode})`, async ({ page, context, baseURL }) => {
      test.setTimeout(60_000)
      const t = labelsIn(lang)
      await prefer(page, mode, lang)
      await learner(context, baseURL ?? '', `Axel Check ${lang} ${mode}`)
      await createDeck(context, baseURL ?? '', 'From a sheet')
      const report = new ViolationReport()

      await page.goto('/decks')
      await expect(mainHeading(page)).toHaveText(t.title)
      await page.getByRole('button', { name: t.import, exact: true }).click()
      await choose(page, { name: 'words.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) }, t.chooseFile)
      await dialog(page).getByRole('combobox', { name: t.deck }).selectOption({ label: 'From a sheet' })
      await dialog(page).getByRole('button', { name: t.check }).click()
      await expect(dialog(page).getByRole('table', { name: t.skippedRows }).getByRole('row')).toHaveCount(2)
      await quiet(page)
      await report.check(page, 'import dialog, a CSV file checked')

      report.expectNone()
    })
  }
}

test('by keyboard alone: the dialog opened, a package chosen, its language picked, imported, a deck opened', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000)
  await learner(context, baseURL ?? '', 'Kim Keys')
  const file = await spanishFile()
  await page.goto('/decks')
  await expect(mainHeading(page)).toHaveText('Your decks')
  await quiet(page)

  const open = page.getByRole('button', { name: 'Import', exact: true })
  // Listened for before the key is pressed: Playwright takes over the browser's chooser only then.
  const chooser = page.waitForEvent('filechooser')
  await tabTo(page, open)
  await page.keyboard.press('Enter')
  // The dialog starts on its file button; Enter opens the browser's chooser.
  const choose = chooseFile(dialog(page))
  await expect(choose).toBeFocused()
  await page.keyboard.press('Enter')
  await (await chooser).setFiles(file)
  await expect(dialog(page).getByText(path.basename(file))).toBeVisible()

  // The language by keys, then "Import" with Enter.
  const language = dialog(page).getByRole('combobox', { name: 'Language of the new decks' })
  await tabTo(page, language)
  await page.keyboard.type('Spanish')
  await expect(language).toHaveValue('es')
  const importNow = dialog(page).getByRole('button', { name: 'Import', exact: true })
  await tabTo(page, importNow)
  await page.keyboard.press('Enter')
  await expect(shown(dialog(page), 'Imported 3 notes into 2 decks (2 reviews kept)')).toBeVisible({ timeout: 20_000 })

  // The skipped notes open with Enter; a deck's link is reached and followed.
  const skipped = dialog(page).getByText('1 note skipped', { exact: true })
  await tabTo(page, skipped)
  await page.keyboard.press('Enter')
  await expect(dialog(page).getByText('g-empty', { exact: true })).toBeVisible()
  const link = dialog(page).getByRole('link', { name: 'Spanish::Food' })
  await tabTo(page, link, { backwards: true })
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/decks\/\d+$/)
  await expect(mainHeading(page)).toHaveText('Spanish::Food')

  // Back on /decks: Escape closes a dialog opened again, and focus is back on "Import".
  await page.goBack()
  await expect(mainHeading(page)).toHaveText('Your decks')
  await tabTo(page, open)
  await page.keyboard.press('Enter')
  await expect(chooseFile(dialog(page))).toBeFocused()
  await press(page, 'Escape', open)
})
