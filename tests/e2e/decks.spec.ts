import type { APIRequestContext, BrowserContext, Locator, Page } from '@playwright/test'
import type { Deck, DeckWord } from '@/shared/decks'
import ru from '@/client/locales/ru'
import { signedInAs } from './helpers/accounts'
import { middayZone } from './helpers/clock'
import {
  type InterfaceLanguage,
  ViolationReport,
  colourModes,
  expectHeadingFocused,
  interfaceLanguages,
  prefer,
  press,
  quiet,
  settled,
  tabTo,
} from './helpers/a11y'
import { expect, expectErrorScreen, failedResource, mainHeading, test, toasts } from './helpers/fixtures'

// The learner's own decks (docs/product.md §12): a deck made, its words added (one asked both
// ways), searched, sorted, edited and deleted, the deck edited, practised on its own and deleted;
// another learner's deck is a missing page; axe in both languages and colour modes; the main
// journey by keyboard alone.

// New cards come on the learner's day: the browser and the settings at midday.
test.use({ timezoneId: middayZone })

/** A new learner at A1 (English): the course row has words. */
async function learnerAtA1(context: BrowserContext, baseURL: string, name: string) {
  await signedInAs(context, baseURL, name)
  const levels = (await (await context.request.get('/api/language-levels?sort=position&pageSize=100')).json()) as {
    items: { id: number; code: string }[]
  }
  const a1 = levels.items.find((level) => level.code === 'A1')
  expect(a1, 'the seeded A1 level').toBeDefined()
  const profile = await context.request.put('/api/me/profile', {
    headers: { Origin: baseURL },
    data: { language: 'en', currentLevelId: a1?.id, targetLevelId: a1?.id },
  })
  expect(profile.status(), await profile.text()).toBe(200)
  const settings = await context.request.put('/api/me/practice/settings', {
    headers: { Origin: baseURL },
    data: { newWordsPerDay: 10, dailyGoal: 20, timeZone: middayZone, ways: ['flashcard'] },
  })
  expect(settings.status(), await settings.text()).toBe(200)
}

/** The learner's decks and words through the API, for the tests that start from a filled deck. */
function decksApi(request: APIRequestContext, baseURL: string) {
  const headers = { Origin: baseURL }
  return {
    async create(name: string, language = 'en'): Promise<Deck> {
      const response = await request.post('/api/me/decks', { headers, data: { name, language, description: 'Words for the road.' } })
      expect(response.status(), await response.text()).toBe(201)
      return (await response.json()) as Deck
    },
    async addWord(deckId: number, word: Partial<DeckWord> & { text: string; reversed?: boolean }): Promise<DeckWord> {
      const response = await request.post(`/api/me/decks/${deckId}/words`, { headers, data: { tags: [], ...word } })
      expect(response.status(), await response.text()).toBe(201)
      return (await response.json()) as DeckWord
    },
    async read(deckId: number) {
      return request.get(`/api/me/decks/${deckId}`)
    },
  }
}

const dialog = (page: Page) => page.getByRole('dialog')
const alertDialog = (page: Page) => page.getByRole('alertdialog')
const wordsTable = (page: Page, name = 'Words of this deck') => page.getByRole('table', { name })
/** The text of each row's word, top to bottom. */
const wordColumn = (page: Page) => wordsTable(page).locator('tbody tr td:first-child span[lang]')
const rowOf = (page: Page, text: string) => wordsTable(page).getByRole('row').filter({ has: page.getByText(text, { exact: true }) })

/** Fills the word form (the dialog open). */
async function fillWord(
  form: Locator,
  values: { text: string; en?: string; ru?: string; example?: string; tags?: string; notes?: string; reversed?: boolean },
) {
  await form.getByRole('textbox', { name: 'Word or phrase' }).fill(values.text)
  if (values.en !== undefined) await form.getByRole('textbox', { name: 'Translation (English)' }).fill(values.en)
  if (values.ru !== undefined) await form.getByRole('textbox', { name: 'Translation (Russian)' }).fill(values.ru)
  if (values.example !== undefined) await form.getByRole('textbox', { name: 'Example' }).fill(values.example)
  if (values.tags !== undefined) await form.getByRole('textbox', { name: 'Tags' }).fill(values.tags)
  if (values.notes !== undefined) await form.getByRole('textbox', { name: 'Notes' }).fill(values.notes)
  if (values.reversed) await form.getByRole('checkbox', { name: 'Also ask it the other way round' }).check()
}

async function addWord(page: Page, values: Parameters<typeof fillWord>[1]) {
  await page.getByRole('main').getByRole('button', { name: 'Add word' }).click()
  await expect(dialog(page)).toHaveAccessibleName('Add a word')
  await fillWord(dialog(page), values)
  await dialog(page).getByRole('button', { name: 'Add word' }).click()
  await expect(dialog(page)).toBeHidden()
  await expect(toasts(page)).toContainText(`Word “${values.text}” added`)
  await expect(rowOf(page, values.text)).toBeVisible()
}

/** Space shows the answer (focus then on "Good"), a digit grades the card. */
async function showAndGrade(page: Page, grade: '1' | '2' | '3' | '4') {
  await expect(page.getByRole('button', { name: 'Show answer' })).toBeVisible()
  await page.keyboard.press('Space')
  await expect(page.getByRole('button', { name: /^Good/ })).toBeFocused()
  await page.keyboard.press(grade)
}

test('a learner makes a deck, adds, finds, sorts, edits and deletes words, edits the deck, practises it and deletes it', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000)
  await learnerAtA1(context, baseURL ?? '', 'Dora Decks')

  // The header's "Decks", next to "Practice".
  await page.goto('/dashboard')
  const decksLink = page.getByRole('banner').getByRole('link', { name: 'Decks', exact: true })
  await expect(decksLink).toHaveAttribute('href', '/decks')
  await decksLink.click()
  await expect(page).toHaveURL('/decks')
  await expectHeadingFocused(page, 'Your decks', { keyboard: false })

  // The course words of the current level come first, not editable, with their counts.
  const list = page.getByRole('list', { name: 'Decks' })
  const course = list.getByRole('listitem').first()
  await expect(course.getByRole('heading', { name: 'Course words · A1' })).toBeVisible()
  await expect(course).toContainText(/\d+ new · 0 due · \d+ cards/)
  await expect(course.getByRole('link')).toHaveCount(0)
  await expect(page.getByText('No decks yet')).toBeVisible()

  // "New deck": practised every day unless unticked; made, its page opens.
  await page.getByRole('button', { name: 'New deck' }).click()
  await expect(dialog(page)).toHaveAccessibleName('New deck')
  await expect(dialog(page).getByRole('checkbox', { name: 'Practise this deck every day' })).toBeChecked()
  await expect(dialog(page).getByRole('combobox', { name: 'Language of its words' })).toHaveValue('en')
  // A name is required.
  await dialog(page).getByRole('button', { name: 'Create deck' }).click()
  await expect(dialog(page).getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true')
  await dialog(page).getByRole('textbox', { name: 'Name' }).fill('Travel words')
  await dialog(page).getByRole('textbox', { name: 'Description' }).fill('What I need at the station.')
  await dialog(page).getByRole('button', { name: 'Create deck' }).click()
  await expect(page).toHaveURL(/\/decks\/\d+$/)
  const deckId = Number(new URL(page.url()).pathname.split('/').pop())
  await expect(mainHeading(page)).toHaveText('Travel words')
  await expect(toasts(page)).toContainText('Deck “Travel words” created')
  await expect(page.getByRole('main')).toContainText('What I need at the station.')
  await expect(page.getByRole('main')).toContainText('English · Practised every day')
  await expect(page.getByRole('main')).toContainText('0 new · 0 due · 0 cards')
  await expect(wordsTable(page)).toContainText('No data')

  // Words: one translation is enough; one asked both ways is two cards.
  await page.getByRole('main').getByRole('button', { name: 'Add word' }).click()
  await fillWord(dialog(page), { text: 'suitcase' })
  await dialog(page).getByRole('button', { name: 'Add word' }).click()
  await expect(dialog(page).getByRole('textbox', { name: 'Translation (English)' })).toHaveAttribute('aria-invalid', 'true')
  await expect(dialog(page)).toContainText('Give a translation, in English or Russian.')
  await fillWord(dialog(page), { text: 'suitcase', ru: 'чемодан', tags: 'travel bags', reversed: true })
  await dialog(page).getByRole('button', { name: 'Add word' }).click()
  await expect(dialog(page)).toBeHidden()
  await expect(toasts(page)).toContainText('Word “suitcase” added')
  await expect(rowOf(page, 'suitcase')).toContainText('Both ways')
  await expect(rowOf(page, 'suitcase')).toContainText('чемодан')
  await addWord(page, { text: 'ticket', en: 'a paper to travel with', ru: 'билет', notes: 'for the train' })
  await addWord(page, { text: 'passport', ru: 'паспорт', example: 'Show your passport, please.' })
  await expect(page.getByRole('main')).toContainText('4 new · 0 due · 4 cards')
  // Newest first.
  await expect(wordColumn(page)).toHaveText(['passport', 'ticket', 'suitcase'])

  // Search reaches translations and notes, through the URL.
  const search = page.getByRole('searchbox', { name: 'Search words' })
  await search.fill('билет')
  await expect(page).toHaveURL(/[?&]q=/)
  await expect(wordColumn(page)).toHaveText(['ticket'])
  await search.fill('train')
  await expect(wordColumn(page)).toHaveText(['ticket'])
  await page.getByRole('button', { name: 'Clear search' }).click()
  await expect(wordColumn(page)).toHaveText(['passport', 'ticket', 'suitcase'])

  // Sort by word, both ways; then oldest first.
  const byWord = wordsTable(page).getByRole('button', { name: 'Word' })
  await byWord.click()
  await expect(page).toHaveURL(/[?&]sort=text(&|$)/)
  await expect(wordColumn(page)).toHaveText(['passport', 'suitcase', 'ticket'])
  await expect(wordsTable(page).getByRole('columnheader', { name: 'Word' })).toHaveAttribute('aria-sort', 'ascending')
  await byWord.click()
  await expect(page).toHaveURL(/[?&]sort=-text(&|$)/)
  await expect(wordColumn(page)).toHaveText(['ticket', 'suitcase', 'passport'])
  await wordsTable(page).getByRole('button', { name: 'Added' }).click()
  await expect(wordColumn(page)).toHaveText(['passport', 'ticket', 'suitcase'])
  await wordsTable(page).getByRole('button', { name: 'Added' }).click()
  await expect(wordColumn(page)).toHaveText(['suitcase', 'ticket', 'passport'])

  // Edit a word: its fields as saved, changed.
  await page.getByRole('button', { name: 'Edit ticket' }).click()
  await expect(dialog(page)).toHaveAccessibleName('Edit “ticket”')
  await expect(dialog(page).getByRole('textbox', { name: 'Notes' })).toHaveValue('for the train')
  await expect(dialog(page).getByRole('checkbox', { name: 'Also ask it the other way round' })).not.toBeChecked()
  await dialog(page).getByRole('textbox', { name: 'Translation (English)' }).fill('train ticket')
  await dialog(page).getByRole('textbox', { name: 'Tags' }).fill('travel rail')
  await dialog(page).getByRole('button', { name: 'Save changes' }).click()
  await expect(dialog(page)).toBeHidden()
  await expect(toasts(page)).toContainText('Word “ticket” saved')
  await expect(rowOf(page, 'ticket')).toContainText('train ticket')
  await expect(rowOf(page, 'ticket')).toContainText('rail')

  // Delete a word: confirmed, gone, the counts with it.
  await page.getByRole('button', { name: 'Delete passport' }).click()
  await expect(alertDialog(page)).toHaveAccessibleName('Delete the word “passport”?')
  await alertDialog(page).getByRole('button', { name: 'Delete word' }).click()
  await expect(toasts(page)).toContainText('Word “passport” deleted')
  await expect(wordColumn(page)).toHaveText(['suitcase', 'ticket'])
  await expect(page.getByRole('main')).toContainText('3 new · 0 due · 3 cards')

  // Edit the deck: renamed, out of the daily practice.
  await page.getByRole('button', { name: 'Edit deck' }).click()
  await expect(dialog(page)).toHaveAccessibleName('Edit “Travel words”')
  await dialog(page).getByRole('textbox', { name: 'Name' }).fill('Travel')
  await dialog(page).getByRole('checkbox', { name: 'Practise this deck every day' }).uncheck()
  await dialog(page).getByRole('button', { name: 'Save changes' }).click()
  await expect(dialog(page)).toBeHidden()
  await expect(toasts(page)).toContainText('Deck “Travel” saved')
  await expect(mainHeading(page)).toHaveText('Travel')
  await expect(page.getByRole('main')).toContainText('English · Not in the daily practice')

  // "Export" offers the deck's files.
  await page.getByRole('button', { name: 'Export' }).click()
  await expect(page.getByRole('link', { name: 'CSV' })).toHaveAttribute('href', `/api/me/decks/${deckId}/export.csv`)
  await expect(page.getByRole('link', { name: 'Anki package' })).toHaveAttribute('href', `/api/me/decks/${deckId}/export.apkg`)
  await page.keyboard.press('Escape')
  await expect(page.getByRole('link', { name: 'CSV' })).toBeHidden()
  await expect(page.getByRole('button', { name: 'Export' })).toBeFocused()

  // "Practise this deck": its three cards (the suitcase both ways, the ticket), none of the course.
  await page.getByRole('link', { name: 'Practise this deck' }).click()
  await expect(page).toHaveURL(`/practice?deck=${deckId}`)
  await expect(mainHeading(page)).toHaveText('Practice')
  await expect(page.getByRole('main').getByText('3 left', { exact: true })).toBeVisible()
  const seen: string[] = []
  for (let card = 0; card < 3; card += 1) {
    seen.push((await page.getByRole('main').locator('#practice-word').textContent()) ?? '')
    await showAndGrade(page, '4')
    if (card < 2) await expect(page.getByRole('main').getByText(`${2 - card} left`, { exact: true })).toBeVisible()
  }
  expect(seen.sort()).toEqual(['suitcase', 'ticket', 'чемодан'])
  await expect(page.getByRole('heading', { name: 'All done for today' })).toBeVisible()

  // Back on the deck: delete it, with the count of its cards in the question.
  await page.goto(`/decks/${deckId}`)
  await page.getByRole('button', { name: 'Delete deck' }).click()
  await expect(alertDialog(page)).toHaveAccessibleName('Delete this deck and its 3 cards?')
  await alertDialog(page).getByRole('button', { name: 'Delete deck' }).click()
  await expect(page).toHaveURL('/decks')
  await expect(toasts(page)).toContainText('Deck “Travel” deleted')
  await expect(page.getByText('No decks yet')).toBeVisible()
  expect((await decksApi(context.request, baseURL ?? '').read(deckId)).status()).toBe(404)
})

test('another learner opening a deck’s address gets the not-found screen; an id that is no number is no page', async ({
  browser,
  page,
  context,
  baseURL,
  diagnostics,
}) => {
  diagnostics.allowConsoleError(failedResource(404))
  diagnostics.allowConsoleError(/Deck not found|Page Not Found/)
  // The owner, through the API only.
  const owner = await browser.newContext({ baseURL })
  let deck: Deck
  try {
    await signedInAs(owner, baseURL ?? '', 'Olive Owner')
    deck = await decksApi(owner.request, baseURL ?? '').create('Private words')
    await decksApi(owner.request, baseURL ?? '').addWord(deck.id, { text: 'secret', translationEn: 'secret', reversed: false })
  } finally {
    await owner.close()
  }

  await signedInAs(context, baseURL ?? '', 'Nosy Neighbour')
  await page.goto(`/decks/${deck.id}`)
  await expectErrorScreen(page, 404, 'Deck not found')
  await expect(page.getByText('secret')).toHaveCount(0)
  // Nor through the API, nor its practice.
  expect((await context.request.get(`/api/me/decks/${deck.id}/words`)).status()).toBe(404)
  expect((await context.request.get(`/api/me/practice/queue?deck=${deck.id}`)).status()).toBe(404)
  await page.goto('/decks/not-a-number')
  await expectErrorScreen(page, 404, 'Page Not Found: /decks/not-a-number')
})

/** The labels the accessibility journey presses, in both interface languages. */
function labelsIn(lang: InterfaceLanguage) {
  const en = {
    title: 'Your decks',
    newDeck: 'New deck',
    cancel: 'Cancel',
    addWord: 'Add word',
    export: 'Export',
    deleteDeck: 'Delete deck',
    editNamed: (text: string) => `Edit ${text}`,
    deleteNamed: (text: string) => `Delete ${text}`,
  }
  if (lang === 'en') return en
  return {
    title: ru.decks.title,
    newDeck: ru.decks.newDeck,
    cancel: ru.deckForm.cancel,
    addWord: ru.deckWords.add,
    export: ru.deck.export,
    deleteDeck: ru.deck.delete,
    editNamed: (text: string) => ru.deckWords.editNamed.replace('{text}', text),
    deleteNamed: (text: string) => ru.deckWords.deleteNamed.replace('{text}', text),
  } satisfies typeof en
}

for (const lang of interfaceLanguages) {
  for (const mode of colourModes) {
    test(`the decks pages and their dialogs pass axe (${lang}, ${mode})`, async ({ page, context, baseURL }) => {
      test.setTimeout(90_000)
      const t = labelsIn(lang)
      await prefer(page, mode, lang)
      await learnerAtA1(context, baseURL ?? '', `Axel Decks ${lang} ${mode}`)
      const api = decksApi(context.request, baseURL ?? '')
      const deck = await api.create('Kitchen')
      await api.addWord(deck.id, { text: 'spoon', translationRu: 'ложка', tags: ['table'], reversed: true })
      await api.addWord(deck.id, { text: 'fork', translationEn: 'fork', translationRu: 'вилка', reversed: false })
      const report = new ViolationReport()

      await page.goto('/decks')
      await expect(page.getByRole('link', { name: 'Kitchen' })).toBeVisible()
      await settled(page, mode, lang)
      await report.check(page, '/decks')
      await page.getByRole('button', { name: t.newDeck }).click()
      await expect(dialog(page)).toBeVisible()
      await quiet(page)
      await report.check(page, 'new deck dialog')
      await dialog(page).getByRole('button', { name: t.cancel }).click()
      await expect(dialog(page)).toBeHidden()

      await page.getByRole('link', { name: 'Kitchen' }).click()
      await expect(mainHeading(page)).toHaveText('Kitchen')
      await expect(wordsTable(page, lang === 'en' ? 'Words of this deck' : ru.deckWords.tableCaption).getByRole('row')).toHaveCount(3)
      await settled(page, mode, lang)
      await report.check(page, '/decks/{id}')
      await page.getByRole('button', { name: t.export }).click()
      await report.check(page, 'export menu')
      await page.keyboard.press('Escape')
      await page.getByRole('main').getByRole('button', { name: t.addWord }).click()
      await expect(dialog(page)).toBeVisible()
      await quiet(page)
      await report.check(page, 'add word dialog')
      await dialog(page).getByRole('button', { name: t.cancel }).click()
      await page.getByRole('button', { name: t.editNamed('spoon') }).click()
      await expect(dialog(page)).toBeVisible()
      await quiet(page)
      await report.check(page, 'edit word dialog')
      await dialog(page).getByRole('button', { name: t.cancel }).click()
      await page.getByRole('button', { name: t.deleteDeck }).click()
      await expect(alertDialog(page)).toBeVisible()
      await quiet(page)
      await report.check(page, 'delete deck confirmation')
      await alertDialog(page).getByRole('button', { name: t.cancel }).click()

      report.expectNone()
    })
  }
}

test('by keyboard alone: a deck made, a word added both ways, the deck practised', async ({ page, context, baseURL }) => {
  test.setTimeout(90_000)
  await learnerAtA1(context, baseURL ?? '', 'Kay Board')
  await page.goto('/decks')
  await expect(mainHeading(page)).toHaveText('Your decks')
  await quiet(page)

  // "New deck" from the page's heading, the form filled and sent with Enter.
  const newDeck = page.getByRole('button', { name: 'New deck' })
  await tabTo(page, newDeck)
  await page.keyboard.press('Enter')
  const name = dialog(page).getByRole('textbox', { name: 'Name' })
  await expect(name).toBeFocused()
  await page.keyboard.type('Keys')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/decks\/\d+$/)
  await expectHeadingFocused(page, 'Keys')

  // "Add word": the word, its translations, "both ways" with Space, sent with Enter.
  const add = page.getByRole('main').getByRole('button', { name: 'Add word' })
  await tabTo(page, add)
  await page.keyboard.press('Enter')
  await expect(dialog(page).getByRole('textbox', { name: 'Word or phrase' })).toBeFocused()
  await page.keyboard.type('key')
  await press(page, 'Tab', dialog(page).getByRole('textbox', { name: 'Translation (English)' }))
  await page.keyboard.type('key')
  await press(page, 'Tab', dialog(page).getByRole('textbox', { name: 'Translation (Russian)' }))
  await page.keyboard.type('ключ')
  const reversed = dialog(page).getByRole('checkbox', { name: 'Also ask it the other way round' })
  await tabTo(page, reversed)
  await page.keyboard.press('Space')
  await expect(reversed).toBeChecked()
  await tabTo(page, dialog(page).getByRole('button', { name: 'Add word' }))
  await page.keyboard.press('Enter')
  await expect(dialog(page)).toBeHidden()
  await expect(rowOf(page, 'key')).toContainText('Both ways')
  // Focus is back on "Add word".
  await expect(add).toBeFocused()

  // The export menu opens and closes by keyboard.
  const exportButton = page.getByRole('button', { name: 'Export' })
  await tabTo(page, exportButton, { backwards: true })
  await page.keyboard.press('Enter')
  await press(page, 'Tab', page.getByRole('link', { name: 'CSV' }))
  await page.keyboard.press('Escape')
  await expect(exportButton).toBeFocused()

  // "Practise this deck", then its two cards by keys.
  await press(page, 'Shift+Tab', page.getByRole('link', { name: 'Practise this deck' }))
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/practice\?deck=\d+$/)
  await expect(page.getByRole('main').getByText('2 left', { exact: true })).toBeVisible()
  await showAndGrade(page, '3')
  await expect(page.getByRole('main').getByText('1 left', { exact: true })).toBeVisible()
})
