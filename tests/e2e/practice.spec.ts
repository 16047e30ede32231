import type { BrowserContext, Page } from '@playwright/test'
import type { PracticeToday } from '@/shared/practice'
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
  quiet,
  settled,
} from './helpers/a11y'
import { accessibilityViolations, expect, mainHeading, test } from './helpers/fixtures'

// The learner's practice (docs/product.md §11): A1 words by keyboard alone (reveal, the four
// grades, undo) in both languages and colour modes; a grade in one tab reaching the other; and
// answers given offline, saved, and counted once when the network returns.

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/{(\w+)}/g, (_, key: string) => String(values[key]))

function wordsIn(lang: InterfaceLanguage) {
  const en = {
    title: 'Practice',
    left: (n: number) => `${n} left`,
    showAnswer: 'Show answer',
    again: 'Again',
    hard: 'Hard',
    good: 'Good',
    easy: 'Easy',
    undo: 'Undo',
    allDone: 'All done for today',
    doneForNow: 'Done for now',
    laterToday: (n: number) => `${n} cards come back later today, the first at `,
    backToDashboard: 'Back to the dashboard',
    gradedElsewhere: 'That card had already been graded in another tab or device, so this answer was not counted.',
    offline: 'Offline — your answers will be saved',
    backOnline: (n: number) => `Back online — ${n} answers saved`,
  }
  if (lang === 'en') return en
  const t = ru.practice
  return {
    title: t.title,
    left: (n: number) => fill(t.left[n === 1 ? 'one' : n < 5 ? 'few' : 'many'], { count: n }),
    showAnswer: t.showAnswer,
    again: t.again,
    hard: t.hard,
    good: t.good,
    easy: t.easy,
    undo: t.undo,
    allDone: t.allDone,
    doneForNow: t.doneForNow,
    laterToday: (n: number) => fill(t.laterTodayLead[n === 1 ? 'one' : n < 5 ? 'few' : 'many'].split('{time}')[0] ?? '', { count: n }),
    backToDashboard: t.backToDashboard,
    gradedElsewhere: t.gradedElsewhere,
    offline: t.offline,
    backOnline: (n: number) => fill(t.backOnline[n === 1 ? 'one' : n < 5 ? 'few' : 'many'], { n }),
  } satisfies typeof en
}

// The cards graded here come back within the learner's day however late the test runs: the browser
// (whose zone the dashboard and this page store as the learner's) and the settings are at midday.
test.use({ timezoneId: middayZone })

/** A new learner at A1 (English) who may start `newWords` new words a day. */
async function learnerAtA1(context: BrowserContext, baseURL: string, name: string, newWords: number) {
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
    data: { newWordsPerDay: newWords, dailyGoal: 20, timeZone: middayZone, ways: ['flashcard'] },
  })
  expect(settings.status(), await settings.text()).toBe(200)
}

const word = (page: Page) => page.getByRole('main').locator('#practice-word')
const leftLine = (page: Page, text: string) => page.getByRole('main').getByText(text, { exact: true })

async function today(context: BrowserContext): Promise<PracticeToday> {
  const response = await context.request.get('/api/me/practice/today')
  expect(response.status()).toBe(200)
  return (await response.json()) as PracticeToday
}

for (const lang of interfaceLanguages) {
  for (const mode of colourModes) {
    test(`a new learner practises A1 words by keyboard (${lang}, ${mode}): reveal, four grades, undo`, async ({
      page,
      context,
      baseURL,
    }) => {
      test.setTimeout(90_000)
      const w = wordsIn(lang)
      await prefer(page, mode, lang)
      await learnerAtA1(context, baseURL ?? '', `Practiser ${lang} ${mode}`, 4)
      const report = new ViolationReport()

      // The header's "Practice" is a link, for signed-in people.
      await page.goto('/dashboard')
      const practiceLink = page.getByRole('banner').getByRole('link', { name: w.title, exact: true })
      await expect(practiceLink).toHaveAttribute('href', '/practice')
      await practiceLink.click()
      await expect(page).toHaveURL('/practice')
      await expectHeadingFocused(page, w.title, { keyboard: false })
      await expect(leftLine(page, w.left(4))).toBeVisible()
      const showAnswer = page.getByRole('button', { name: w.showAnswer })
      await expect(showAnswer).toBeVisible()
      await settled(page, mode, lang)
      await report.check(page, 'practice: a card')

      // Space shows the answer; focus goes to "Good"; each grade shows its next interval.
      const first = await word(page).textContent()
      await page.keyboard.press('Space')
      const grades = page.getByRole('group')
      await expect(grades.getByRole('button')).toHaveCount(4)
      await expect(page.getByRole('button', { name: new RegExp(`^${w.good}`) })).toBeFocused()
      await expect(page.getByRole('button', { name: new RegExp(`^${w.again}`) })).toHaveAccessibleName(/\d/)
      await expect(showAnswer).toBeHidden()
      await settled(page, mode, lang)
      await report.check(page, 'practice: the answer shown')

      // 1 "Again": the next card, focus on its "Show answer".
      await page.keyboard.press('1')
      await expect(leftLine(page, w.left(3))).toBeVisible()
      await expect(word(page)).not.toHaveText(first ?? '')
      await expect(showAnswer).toBeFocused()
      // 2 "Hard", then U takes it back: the card is in front again, to be graded anew.
      const second = await word(page).textContent()
      await page.keyboard.press('Space')
      await page.keyboard.press('2')
      await expect(leftLine(page, w.left(2))).toBeVisible()
      await expect(word(page)).not.toHaveText(second ?? '')
      await page.keyboard.press('u')
      await expect(leftLine(page, w.left(3))).toBeVisible()
      await expect(word(page)).toHaveText(second ?? '')
      await expect(showAnswer).toBeFocused()
      await page.keyboard.press('Space')
      await page.keyboard.press('2')
      await expect(leftLine(page, w.left(2))).toBeVisible()
      // 3 "Good", 4 "Easy".
      await page.keyboard.press('Space')
      await page.keyboard.press('3')
      await expect(leftLine(page, w.left(1))).toBeVisible()
      await page.keyboard.press('Space')
      await page.keyboard.press('4')

      // Nothing due now and no new word left; the "Again", the "Hard" and the "Good" come back within
      // minutes, later today (the "Easy" in days).
      const done = page.getByRole('heading', { level: 2, name: w.doneForNow })
      await expect(done).toBeVisible()
      await expect(done).toBeFocused()
      await expect(page.getByRole('main').getByText(w.laterToday(3))).toBeVisible()
      await expect(page.getByRole('link', { name: w.backToDashboard })).toHaveAttribute('href', '/dashboard')
      await settled(page, mode, lang)
      await report.check(page, 'practice: done for now')
      report.expectNone()

      // The server counted four grades (the undone one not), one of each kind.
      await expect.poll(async () => (await today(context)).done).toBe(4)
      const exported = (await (await context.request.get('/api/me/export')).json()) as {
        practiceReviews: { grade: number; undoneAt: string | null }[]
      }
      const counted = exported.practiceReviews.filter((review) => review.undoneAt === null).map((review) => review.grade)
      expect(counted.sort()).toEqual([1, 2, 3, 4])
      // The undone grade is kept as undone, or never reached the server (taken back from the outbox).
      expect(exported.practiceReviews.filter((review) => review.undoneAt !== null).length).toBeLessThanOrEqual(1)
    })
  }
}

test('a grade in one tab updates the other tab; the card already graded there is not counted twice', async ({
  context,
  baseURL,
  diagnostics,
}) => {
  const w = wordsIn('en')
  // The second tab's grade of a card graded already: the server's 409, which the page expects.
  diagnostics.allowConsoleError(/status of 409 \(Conflict\) \(.*\/api\/me\/practice\/reviews:\d+\)$/)
  await learnerAtA1(context, baseURL ?? '', 'Two tabs', 5)
  const a = await context.newPage()
  const b = await context.newPage()
  for (const tab of [a, b]) {
    await tab.goto('/practice')
    await expect(leftLine(tab, w.left(5))).toBeVisible()
    await expect(tab.locator('html')).toHaveAttribute('data-live', 'open')
  }
  const first = await word(b).textContent()
  await expect(word(a)).toHaveText(first ?? '')

  // Tab A grades two cards; tab B hears it: fewer left, its card stays on screen.
  for (let i = 0; i < 2; i += 1) {
    await a.keyboard.press('Space')
    await a.keyboard.press('3')
  }
  await expect(leftLine(a, w.left(3))).toBeVisible()
  await expect(leftLine(b, w.left(4))).toBeVisible()
  await expect(word(b)).toHaveText(first ?? '')

  // B grades it too: refused (graded already), not counted, and B goes on with what is left.
  await b.keyboard.press('Space')
  await b.keyboard.press('3')
  await expect(b.getByText(w.gradedElsewhere).first()).toBeVisible()
  // Said to a screen reader too, in place of the grade's "next in …", which did not count.
  await expect(b.getByRole('main').locator('p.sr-only[role="status"]')).toHaveText(w.gradedElsewhere)
  await expect(leftLine(b, w.left(3))).toBeVisible()
  await expect(word(b)).toHaveText((await word(a).textContent()) ?? '')
  await expect.poll(async () => (await today(context)).done).toBe(2)
})

test('answers given offline are saved and sent once when the network returns', async ({ page, context, baseURL }) => {
  const w = wordsIn('en')
  await learnerAtA1(context, baseURL ?? '', 'Offline practiser', 5)
  await page.goto('/practice')
  await expect(leftLine(page, w.left(5))).toBeVisible()

  await context.setOffline(true)
  await expect(page.getByText(w.offline)).toBeVisible()
  const graded: string[] = []
  for (let i = 0; i < 4; i += 1) {
    graded.push((await word(page).textContent()) ?? '')
    await page.keyboard.press('Space')
    await page.keyboard.press(String((i % 3) + 2))
    await expect(leftLine(page, w.left(4 - i))).toBeVisible()
  }
  await expect(page.getByText('4 answers waiting to be sent')).toBeVisible()
  // The fourth taken back before it was ever sent: it no longer waits.
  await page.keyboard.press('u')
  await expect(word(page)).toHaveText(graded.pop() ?? '')
  await expect(page.getByText('3 answers waiting to be sent')).toBeVisible()
  // Nothing reached the server; the answers wait on the device.
  expect((await today(context)).done).toBe(0)

  await context.setOffline(false)
  await expect(page.getByText(w.backOnline(3))).toBeVisible()
  expect((await today(context)).done).toBe(3)
  const exported = (await (await context.request.get('/api/me/export')).json()) as {
    practice: { cards: { word: string }[] }
    practiceReviews: { clientId: string }[]
  }
  expect(exported.practiceReviews).toHaveLength(3)
  expect(new Set(exported.practiceReviews.map((review) => review.clientId)).size).toBe(3)
  expect(exported.practice.cards.map((card) => card.word).sort()).toEqual([...graded].sort())
  await expect(mainHeading(page)).toHaveText(w.title)
})

test('answers that could not be sent survive a reload, and are sent then', async ({ page, context, baseURL, diagnostics }) => {
  const w = wordsIn('en')
  await learnerAtA1(context, baseURL ?? '', 'Reloading practiser', 4)
  await page.goto('/practice')
  await expect(leftLine(page, w.left(4))).toBeVisible()
  // The server cannot be reached for grades (the browser still says it is online).
  diagnostics.allowConsoleError(/net::ERR_FAILED \(.*\/api\/me\/practice\/reviews:\d+\)$/)
  await page.route('**/api/me/practice/reviews', (route) => route.abort('failed'))
  const graded: string[] = []
  for (let i = 0; i < 2; i += 1) {
    graded.push((await word(page).textContent()) ?? '')
    await page.keyboard.press('Space')
    await page.keyboard.press('3')
  }
  await expect(leftLine(page, w.left(2))).toBeVisible()
  expect((await today(context)).done).toBe(0)
  // Both answers are on the device before the tab goes: the write follows the grade on screen by a
  // few milliseconds, and a tab closed in between would lose the last one.
  const kept = () =>
    page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const open = indexedDB.open('lingua-practice')
          open.onerror = () => resolve(-1)
          open.onsuccess = () => {
            const all = open.result.transaction('outbox').objectStore('outbox').getAll()
            all.onsuccess = () => {
              resolve((all.result as unknown[][]).flat().length)
              open.result.close()
            }
          }
        }),
    )
  await expect.poll(kept).toBe(2)

  // The tab is closed (its retries end with it) and the page opened again, the server reachable.
  await page.close()
  const again = await context.newPage()
  await again.goto('/practice')
  await expect(again.getByText(w.backOnline(2))).toBeVisible()
  expect((await today(context)).done).toBe(2)
  // The words answered before do not come back in this session.
  await expect(leftLine(again, w.left(2))).toBeVisible()
  expect(graded).not.toContain(await word(again).textContent())
})

test('the command palette offers Practice among the learner\'s own pages', async ({ page, context, baseURL }) => {
  await signedInAs(context, baseURL ?? '', 'Palette Practiser')
  await page.goto('/dashboard')
  await expect(mainHeading(page)).toHaveText('Hello, Palette Practiser!')
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog')
  await expect(palette.getByRole('group', { name: 'Your pages' }).getByRole('option', { name: 'Practice' })).toBeVisible()
  await palette.getByRole('combobox').fill('practice')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL('/practice')
  await expect(mainHeading(page)).toHaveText('Practice')
})

test('a learner without a current level is told where to choose one', async ({ page, context, baseURL }) => {
  await signedInAs(context, baseURL ?? '', 'Levelless Practiser')
  await page.goto('/practice')
  await expect(page.getByRole('heading', { level: 2, name: 'Nothing to practise yet' })).toBeVisible()
  await expect(page.getByText(/you have not chosen one yet/)).toBeVisible()
  // Nothing to grade, nothing to undo: no keys to learn.
  await expect(page.getByRole('button', { name: 'Undo' })).toHaveCount(0)
  await quiet(page)
  expect(await accessibilityViolations(page)).toEqual([])
})

test('cards that come back later today: the page says when, and asks for them once the first is due', async ({
  page,
  context,
  baseURL,
}) => {
  await learnerAtA1(context, baseURL ?? '', 'Later Practiser', 1)
  // The page's timers on a clock the test moves (the server's is the real one).
  await page.clock.install()
  await page.goto('/practice')
  await page.getByRole('button', { name: 'Show answer' }).click()
  await page.getByRole('button', { name: /^Again/ }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Done for now' })).toBeVisible()
  await expect(page.getByRole('main').getByText(/^1 card comes back later today, at \d{1,2}:\d{2}\s?[AP]?M?: it will show here then\.$/)).toBeVisible()
  await expect.poll(async () => (await today(context)).done).toBe(1)

  const queueReads: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/me/practice/queue') queueReads.push(request.url())
  })
  // Not before the card is due ("Again": in a minute)…
  await page.clock.fastForward('00:40')
  await page.waitForTimeout(1000)
  expect(queueReads).toEqual([])
  // …and then.
  await page.clock.fastForward('00:30')
  await expect.poll(() => queueReads.length).toBeGreaterThan(0)
})

test('offline, a page not opened yet on the device says so in place of the browser’s error page, and opens once back online', async ({
  page,
  context,
  baseURL,
  diagnostics,
}) => {
  // What the browser reports of the requests it could not make offline.
  diagnostics.allowConsoleError(/^Failed to load resource: net::ERR_INTERNET_DISCONNECTED /)
  diagnostics.allowConsoleError(/^TypeError: Failed to fetch dynamically imported module: /)
  await learnerAtA1(context, baseURL ?? '', 'Wandering Practiser', 2)
  await page.goto('/practice')
  await expect(page.getByRole('button', { name: 'Show answer' })).toBeVisible()
  await context.setOffline(true)
  // The home page's code was never loaded here: it cannot load now.
  await page.getByRole('banner').getByRole('link', { name: 'Home', exact: true }).click()
  await expect(mainHeading(page)).toHaveText('You are offline')
  await expect(page.getByText('This page cannot load without a connection. It will open once you are back online.')).toBeVisible()
  await expect(page).toHaveURL('/')
  await context.setOffline(false)
  await expect(mainHeading(page)).not.toHaveText('You are offline')
  await expect(page.getByRole('banner')).toBeVisible()
})

test('answers given offline are sent once the network returns from whatever page the learner is on', async ({
  page,
  context,
  baseURL,
}) => {
  const w = wordsIn('en')
  await learnerAtA1(context, baseURL ?? '', 'Leaving Practiser', 3)
  await page.goto('/dashboard')
  await expect(mainHeading(page)).toHaveText('Hello, Leaving Practiser!')
  await page.getByRole('banner').getByRole('link', { name: w.title, exact: true }).click()
  await expect(leftLine(page, w.left(3))).toBeVisible()

  await context.setOffline(true)
  for (let i = 0; i < 2; i += 1) {
    await page.keyboard.press('Space')
    await page.keyboard.press('3')
    await expect(leftLine(page, w.left(2 - i))).toBeVisible()
  }
  await expect(page.getByText('2 answers waiting to be sent')).toBeVisible()
  // Back to the dashboard, still offline (its code is here already), then online: sent from there.
  await page.goBack()
  await expect(mainHeading(page)).toHaveText('Hello, Leaving Practiser!')
  expect((await today(context)).done).toBe(0)
  await context.setOffline(false)
  await expect.poll(async () => (await today(context)).done).toBe(2)
  await expect(page.getByRole('region', { name: 'Today', exact: true }).getByText('Due today: 2', { exact: true })).toBeVisible()
})
