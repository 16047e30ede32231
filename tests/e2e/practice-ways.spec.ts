import type { BrowserContext, Page } from '@playwright/test'
import type { Deck } from '@/shared/decks'
import type { PracticeQueue, PracticeToday, PracticeWay } from '@/shared/practice'
import ru from '@/client/locales/ru'
import { signedInAs } from './helpers/accounts'
import { type InterfaceLanguage, ViolationReport, colourModes, interfaceLanguages, prefer, settled } from './helpers/a11y'
import { middayZone } from './helpers/clock'
import { expect, test } from './helpers/fixtures'

// The ways to practise (PRODUCT §13, docs/decisions/0036-ways-to-practise.md), each alone on a deck
// of known Spanish words: "Type the answer" (correct, almost, wrong, "Change grade"), "Choose the
// answer" by keys 1–4, "Fill the gap", "Listen and type" with a voice and without one; an answer
// given offline sent once back online; axe on each way in both languages and colour modes.

test.use({ timezoneId: middayZone })

const fill = (text: string, values: Record<string, string>) => text.replace(/{(\w+)}/g, (_, key: string) => values[key] ?? '')

function wordsIn(lang: InterfaceLanguage) {
  if (lang === 'en') {
    return {
      correct: 'Correct',
      almost: (answer: string) => `Almost — ${answer}`,
      wrong: (answer: string) => `Not quite — ${answer}`,
      changeGrade: 'Change grade',
      next: 'Next',
      check: 'Check',
      yourAnswer: 'Your answer',
      good: 'Good',
      again: 'Again',
      type: 'Type the answer',
    }
  }
  const t = ru.practice
  return {
    correct: t.correct,
    almost: (answer: string) => fill(t.almost, { answer }),
    wrong: (answer: string) => fill(t.wrong, { answer }),
    changeGrade: t.changeGrade,
    next: t.next,
    check: t.check,
    yourAnswer: t.yourAnswer,
    good: t.good,
    again: t.again,
    type: t.type,
  }
}

/** The deck's words, in the order the queue gives them (new cards by their order in the deck). */
const food = [
  { text: 'manzana', translationEn: 'apple', translationRu: 'яблоко', example: 'Como una manzana cada día.' },
  { text: 'naranja', translationEn: 'orange', translationRu: 'апельсин', example: 'La naranja es dulce.' },
  { text: 'pan', translationEn: 'bread', translationRu: 'хлеб', example: 'Compro pan por la mañana.' },
  { text: 'queso', translationEn: 'cheese', translationRu: 'сыр', example: 'Me gusta el queso.' },
  { text: 'leche', translationEn: 'milk', translationRu: 'молоко', example: 'Bebo leche fría.' },
]

/** A learner practising only `ways`, with a deck of the food words; answers `/practice?deck=…`'s path. */
async function learnerWithDeck(context: BrowserContext, baseURL: string, name: string, ways: PracticeWay[]): Promise<string> {
  await signedInAs(context, baseURL, name)
  const headers = { Origin: baseURL }
  const profile = await context.request.put('/api/me/profile', { headers, data: { language: 'es', currentLevelId: null, targetLevelId: null } })
  expect(profile.status(), await profile.text()).toBe(200)
  await chooseWays(context, baseURL, ways)
  const made = await context.request.post('/api/me/decks', { headers, data: { name: 'Comida', language: 'es' } })
  expect(made.status(), await made.text()).toBe(201)
  const deck = (await made.json()) as Deck
  for (const word of food) {
    const added = await context.request.post(`/api/me/decks/${deck.id}/words`, { headers, data: { ...word, partOfSpeech: 'noun', tags: [] } })
    expect(added.status(), await added.text()).toBe(201)
  }
  return `/practice?deck=${deck.id}`
}

async function chooseWays(context: BrowserContext, baseURL: string, ways: PracticeWay[]) {
  const saved = await context.request.put('/api/me/practice/settings', {
    headers: { Origin: baseURL },
    data: { newWordsPerDay: 10, dailyGoal: 20, timeZone: middayZone, ways },
  })
  expect(saved.status(), await saved.text()).toBe(200)
}

/** The grades the page sends, in order. */
function gradesSent(page: Page): number[] {
  const sent: number[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/me/practice/reviews')) {
      sent.push((JSON.parse(request.postData() ?? '{}') as { grade: number }).grade)
    }
  })
  return sent
}

async function today(context: BrowserContext): Promise<PracticeToday> {
  return (await (await context.request.get('/api/me/practice/today')).json()) as PracticeToday
}

/** The browser's speech synthesis replaced: `voices` (languages), and what it was asked to say in `window.spoken`. */
async function fakeSpeech(page: Page, voices: string[]) {
  await page.addInitScript((langs: string[]) => {
    const spoken: string[] = []
    Object.assign(window, { spoken })
    const list = langs.map((lang, i) => ({ lang, name: `Test ${lang}`, voiceURI: `test-${lang}`, default: i === 0, localService: true }))
    const synthesis = {
      getVoices: () => list,
      speak: (utterance: { text: string }) => spoken.push(utterance.text),
      cancel: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }
    Object.defineProperty(window, 'speechSynthesis', { value: synthesis, configurable: true })
    Object.defineProperty(window, 'SpeechSynthesisUtterance', {
      value: class {
        voice: unknown = null
        lang = ''
        constructor(readonly text: string) {}
      },
      configurable: true,
    })
  }, voices)
}

const card = (page: Page) => page.getByRole('main').getByRole('region')
const status = (page: Page) => page.getByRole('main').getByRole('status').last()

for (const lang of interfaceLanguages) {
  test(`"Type the answer" (${lang}): correct, almost and wrong, Enter to check and go on, "Change grade"`, async ({ page, context, baseURL }) => {
    const w = wordsIn(lang)
    await prefer(page, 'light', lang)
    const path = await learnerWithDeck(context, baseURL ?? '', `Typist ${lang}`, ['type'])
    const sent = gradesSent(page)
    await page.goto(path)
    const field = page.getByRole('textbox', { name: w.yourAnswer })
    // The translation in the interface language is the question; the word is not shown.
    await expect(card(page).getByRole('heading', { level: 2 })).toHaveText(lang === 'en' ? 'apple' : 'яблоко')
    await expect(card(page)).toContainText(w.type)
    await expect(card(page)).not.toContainText('manzana')

    // Correct: Enter checks, focus goes to "Next", Enter goes on with "Good".
    await field.fill('Manzana')
    await field.press('Enter')
    await expect(card(page).getByText(w.correct, { exact: true })).toBeVisible()
    await expect(status(page)).toHaveText(w.correct)
    await expect(page.getByRole('button', { name: w.next })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(card(page).getByRole('heading', { level: 2 })).toHaveText(lang === 'en' ? 'orange' : 'апельсин')
    await expect(field).toBeFocused()

    // Almost: two letters swapped, graded Hard.
    await page.keyboard.type('naranaj')
    await page.keyboard.press('Enter')
    await expect(card(page).getByText(w.almost('naranja'), { exact: true })).toBeVisible()
    await expect(status(page)).toHaveText(w.almost('naranja'))
    await page.keyboard.press('Enter')

    // Not quite, then "Change grade": the four grades, focus on the one given ("Again"); 3 makes it Good.
    await expect(field).toBeFocused()
    await page.keyboard.type('pain')
    await page.keyboard.press('Enter')
    await expect(card(page).getByText(w.wrong('pan'), { exact: true })).toBeVisible()
    await page.getByRole('button', { name: w.changeGrade }).click()
    await expect(page.getByRole('button', { name: new RegExp(`^${w.again}`) })).toBeFocused()
    await expect(card(page).getByRole('group').getByRole('button')).toHaveCount(4)
    await page.keyboard.press('3')
    await expect(card(page).getByRole('heading', { level: 2 })).toHaveText(lang === 'en' ? 'cheese' : 'сыр')

    await expect.poll(() => sent).toEqual([3, 2, 3])
    await expect.poll(async () => (await today(context)).done).toBe(3)
  })
}

test('"Choose the answer": four choices, keys 1–4, the right one and a wrong one', async ({ page, context, baseURL }) => {
  const path = await learnerWithDeck(context, baseURL ?? '', 'Chooser', ['choose'])
  const sent = gradesSent(page)
  const queue = (await (await context.request.get(`/api/me/practice/queue?deck=${path.split('=')[1]}`)).json()) as PracticeQueue
  const [first, second] = queue.cards
  await page.goto(path)
  const choices = card(page).getByRole('group', { name: 'Choices' })
  await expect(choices.getByRole('button')).toHaveCount(4)
  await expect(card(page).getByRole('heading', { level: 2 })).toHaveText('apple')
  // The four, the answer once, each with its key.
  const shown = (await choices.getByRole('button').allTextContents()).map((text) => text.replace(/^\d/, ''))
  expect(shown).toEqual(first?.choices)
  expect(shown.filter((text) => text === 'manzana')).toHaveLength(1)
  await expect(choices.getByRole('button').first()).toHaveAttribute('aria-keyshortcuts', '1')

  await page.keyboard.press(String((first?.choices?.indexOf('manzana') ?? 0) + 1))
  await expect(card(page).getByText('Correct', { exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Next' })).toBeFocused()
  await page.keyboard.press('Enter')

  await expect(card(page).getByRole('heading', { level: 2 })).toHaveText('orange')
  const wrong = (second?.choices ?? []).findIndex((choice) => choice !== 'naranja')
  await page.keyboard.press(String(wrong + 1))
  await expect(card(page).getByText('Not quite — naranja', { exact: true })).toBeVisible()
  // Another key does nothing more until "Change grade" is open.
  await page.keyboard.press('4')
  await expect(card(page).getByText('Not quite — naranja', { exact: true })).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(card(page).getByRole('heading', { level: 2 })).toHaveText('bread')
  await expect.poll(() => sent).toEqual([3, 1])
})

test('"Fill the gap": the example with the word left out, typed back', async ({ page, context, baseURL }) => {
  const path = await learnerWithDeck(context, baseURL ?? '', 'Gap filler', ['gap'])
  const sent = gradesSent(page)
  await page.goto(path)
  const heading = card(page).getByRole('heading', { level: 2 })
  await expect(heading).toContainText('Como una')
  await expect(heading).toContainText('cada día.')
  await expect(heading).not.toContainText('manzana')
  await expect(card(page)).toContainText('apple')
  const field = page.getByRole('textbox', { name: 'Your answer' })
  await field.fill('manzana')
  await page.getByRole('button', { name: 'Check' }).click()
  await expect(card(page).getByText('Correct', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(heading).toContainText('es dulce.')
  await expect.poll(() => sent).toEqual([3])
})

test('"Listen and type": the word said in its language, typed back', async ({ page, context, baseURL }) => {
  await fakeSpeech(page, ['en-US', 'es-ES'])
  const path = await learnerWithDeck(context, baseURL ?? '', 'Listener', ['listen'])
  await page.goto(path)
  await expect(card(page).getByRole('heading', { level: 2 })).toHaveText('Type the word you hear.')
  await expect(card(page)).toContainText('Listen and type')
  await expect.poll(() => page.evaluate(() => (window as unknown as { spoken: string[] }).spoken)).toEqual(['manzana'])
  await page.getByRole('button', { name: 'Listen again' }).click()
  await expect.poll(() => page.evaluate(() => (window as unknown as { spoken: string[] }).spoken)).toEqual(['manzana', 'manzana'])
  await expect(page.getByText(/has no voice/)).toHaveCount(0)
  const field = page.getByRole('textbox', { name: 'Your answer' })
  await field.fill('manzana')
  await field.press('Enter')
  await expect(card(page).getByText('Correct', { exact: true })).toBeVisible()
})

test('without a voice for the language, the page says so once and "Listen and type" is left out', async ({ page, context, baseURL }) => {
  await fakeSpeech(page, ['en-US'])
  const path = await learnerWithDeck(context, baseURL ?? '', 'Voiceless', ['listen', 'type'])
  await page.goto(path)
  const note = page.getByText('Your browser has no voice for Spanish, so “Listen and type” is left out.')
  await expect(note).toHaveCount(1)
  for (const answer of ['manzana', 'naranja', 'pan']) {
    await expect(card(page)).toContainText('Type the answer')
    await expect(card(page)).not.toContainText('Listen and type')
    const field = page.getByRole('textbox', { name: 'Your answer' })
    await field.fill(answer)
    await field.press('Enter')
    await page.keyboard.press('Enter')
    await expect(note).toHaveCount(1)
  }
})

test('an answer typed offline is saved, and sent once back online', async ({ page, context, baseURL }) => {
  const path = await learnerWithDeck(context, baseURL ?? '', 'Offline typist', ['type'])
  const sent = gradesSent(page)
  await page.goto(path)
  await expect(page.getByRole('main').getByText('5 left', { exact: true })).toBeVisible()
  await context.setOffline(true)
  await expect(page.getByText('Offline — your answers will be saved')).toBeVisible()
  const field = page.getByRole('textbox', { name: 'Your answer' })
  await field.fill('manzana')
  await field.press('Enter')
  await expect(card(page).getByText('Correct', { exact: true })).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(page.getByText('1 answer waiting to be sent')).toBeVisible()
  expect((await today(context)).done).toBe(0)

  await context.setOffline(false)
  await expect(page.getByText('Back online — 1 answer saved')).toBeVisible()
  expect((await today(context)).done).toBe(1)
  // Sent once, with the grade the answer gave.
  expect(sent).toEqual([3])
  const exported = (await (await context.request.get('/api/me/export')).json()) as { practiceReviews: unknown[] }
  expect(exported.practiceReviews).toHaveLength(1)
})

for (const lang of interfaceLanguages) {
  for (const mode of colourModes) {
    test(`each way passes axe (${lang}, ${mode})`, async ({ page, context, baseURL }) => {
      test.setTimeout(120_000)
      await fakeSpeech(page, ['es-ES'])
      await prefer(page, mode, lang)
      const w = wordsIn(lang)
      const path = await learnerWithDeck(context, baseURL ?? '', `Axe ${lang} ${mode}`, ['type'])
      const report = new ViolationReport()
      for (const way of ['type', 'choose', 'gap', 'listen', 'flashcard'] as const) {
        await chooseWays(context, baseURL ?? '', [way])
        await page.goto(path)
        await expect(card(page)).toBeVisible()
        await settled(page, mode, lang)
        await report.check(page, `${way}: the question`)
        if (way === 'flashcard') continue
        if (way === 'choose') await page.keyboard.press('1')
        else {
          await page.getByRole('textbox', { name: w.yourAnswer }).fill('manzanna')
          await page.getByRole('button', { name: w.check }).click()
        }
        await page.getByRole('button', { name: w.changeGrade }).click()
        await expect(card(page).getByRole('group').last().getByRole('button')).toHaveCount(4)
        await settled(page, mode, lang)
        await report.check(page, `${way}: the result`)
      }
      report.expectNone()
    })
  }
}
