import type { APIRequestContext, BrowserContext, Locator, Page } from '@playwright/test'
import type { LevelPage } from '@/shared/levels'
import type { PracticeQueue, PracticeSettings } from '@/shared/practice'
import ru from '@/client/locales/ru'
import { signedInAs } from './helpers/accounts'
import { ViolationReport, colourModes, interfaceLanguages, prefer, settled } from './helpers/a11y'
import { middayZone } from './helpers/clock'
import { expect, mainHeading, test, toasts } from './helpers/fixtures'

// The learner's day of practice outside the practice page (docs/product.md §11): the dashboard's
// "Today" card (counts, the goal's progress, the streak, the 12-week calendar and its
// alternatives) and the "Practice" settings on /account, with the browser's time zone sent.

// The learner's day is the time zone's: UTC unless a test says otherwise, as the stored default.
test.use({ timezoneId: 'UTC' })

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/{(\w+)}/g, (_, key: string) => String(values[key]))

/** A confirmed learner of English, signed in in `context`, at A1 unless `level` is null. */
async function learner(context: BrowserContext, baseURL: string, name: string, level: string | null = 'A1', language = 'en') {
  await signedInAs(context, baseURL, name)
  const levels = (await (await context.request.get('/api/language-levels?pageSize=100')).json()) as LevelPage
  const current = level === null ? null : (levels.items.find((item) => item.code === level)?.id ?? null)
  expect(level === null || current !== null, `level ${level}`).toBe(true)
  const saved = await context.request.put('/api/me/profile', {
    headers: { Origin: baseURL },
    data: { language, currentLevelId: current, targetLevelId: null },
  })
  expect(saved.status(), await saved.text()).toBe(200)
}

/** Grades the first `n` cards of the learner's queue "Good" through the API, as the practice page would. */
async function practise(request: APIRequestContext, baseURL: string, n: number) {
  const queue = (await (await request.get(`/api/me/practice/queue?limit=${n}`)).json()) as PracticeQueue
  expect(queue.cards.length).toBeGreaterThanOrEqual(n)
  for (const card of queue.cards.slice(0, n)) {
    const graded = await request.post('/api/me/practice/reviews', {
      headers: { Origin: baseURL },
      data: { clientId: crypto.randomUUID(), wordId: card.wordId, grade: 3, version: card.schedule.version },
    })
    expect(graded.status(), await graded.text()).toBe(201)
  }
}

async function settingsOf(request: APIRequestContext): Promise<PracticeSettings> {
  return (await (await request.get('/api/me/practice/settings')).json()) as PracticeSettings
}

async function saveSettings(request: APIRequestContext, baseURL: string, settings: Partial<PracticeSettings>) {
  const saved = await request.put('/api/me/practice/settings', {
    headers: { Origin: baseURL },
    data: { ...(await settingsOf(request)), ...settings },
  })
  expect(saved.status(), await saved.text()).toBe(200)
}

const todayCard = (page: Page, name = 'Today') => page.getByRole('region', { name, exact: true })
const practiceSection = (page: Page, name = 'Practice') => page.getByRole('region', { name, exact: true })
const squares = (card: Locator) => card.locator('[data-date]')

test.describe('at midday', () => {
  test.use({ timezoneId: middayZone })

  test('a learner with a level: what is due and new, the goal, the streak and the calendar, which grades move', async ({
    page,
    context,
    baseURL,
  }) => {
    await learner(context, baseURL ?? '', 'Daily Learner')
    await page.goto('/dashboard')
    // The browser's zone is stored once the dashboard opens: the grades below count in it.
    await expect.poll(async () => (await settingsOf(context.request)).timeZone).toBe(middayZone)
    const card = todayCard(page)
    await expect(card.getByText('Due today: 0', { exact: true })).toBeVisible()
    await expect(card.getByText('New today: 10', { exact: true })).toBeVisible()
    const progress = card.getByRole('progressbar', { name: '0 of 20 reviews' })
    await expect(progress).toHaveAttribute('aria-valuenow', '0')
    await expect(progress).toHaveAttribute('aria-valuemax', '20')
    await expect(card.getByRole('link', { name: 'Practise now' })).toHaveAttribute('href', '/practice')
    await expect(card.getByText('Streak: 0 days', { exact: true })).toBeVisible()
    await expect(card.getByText('Longest: 0 days', { exact: true })).toBeVisible()
    await expect(card.getByText('All done for today')).toHaveCount(0)

    // The calendar: this week and the 11 before it, from a Monday (78–84 days), nothing practised;
    // its text alternative says so, its table by week.
    await expect(card.getByRole('heading', { name: 'Last 12 weeks' })).toBeVisible()
    const first = (await squares(card).first().getAttribute('data-date')) ?? ''
    expect(new Date(`${first}T00:00:00Z`).getUTCDay(), `${first} is a Monday`).toBe(1)
    const shown = await squares(card).count()
    expect(shown >= 78 && shown <= 84, `${shown} days`).toBe(true)
    await expect(card.getByText('Days practised: 0 · Days with the goal met: 0 · Reviews: 0')).toBeVisible()
    await expect(card.getByRole('table')).toBeHidden()
    await card.getByRole('button', { name: 'Show as table' }).click()
    const table = card.getByRole('table', { name: 'Last 12 weeks' })
    await expect(table).toBeVisible()
    await expect(table.getByRole('columnheader')).toHaveText(['Week starting', 'Days practised', 'Goal met', 'Reviews'])
    // 12 weeks and the header.
    await expect(table.getByRole('row')).toHaveCount(13)
    await expect(card.getByRole('button', { name: 'Hide table' })).toHaveAttribute('aria-expanded', 'true')

    // Three new words graded "Good": each is due again in 10 minutes, today.
    await practise(context.request, baseURL ?? '', 3)
    await page.reload()
    await expect(card.getByText('Due today: 3', { exact: true })).toBeVisible()
    await expect(card.getByText('New today: 7', { exact: true })).toBeVisible()
    await expect(card.getByRole('progressbar', { name: '3 of 20 reviews' })).toHaveAttribute('aria-valuenow', '3')
    await expect(card.getByText('Days practised: 1 · Days with the goal met: 0 · Reviews: 3')).toBeVisible()
    await expect(squares(card).last()).toHaveAttribute('data-level', 'some')
    await expect(card.getByText('Streak: 0 days', { exact: true })).toBeVisible()
  })
})

test('Practice on /account: the goal and new words per day, checked, saved and shown on the dashboard', async ({
  page,
  context,
  baseURL,
}) => {
  await learner(context, baseURL ?? '', 'Goal Setter')
  await practise(context.request, baseURL ?? '', 3)
  await page.goto('/account')
  const section = practiceSection(page)
  const newWords = section.getByLabel('New words per day')
  const goal = section.getByLabel('Daily goal')
  await expect(newWords).toHaveValue('10')
  await expect(goal).toHaveValue('20')
  await expect(section.getByText(/^Your day follows UTC( \(.+\))?, where it is \d{1,2}:\d{2}/)).toBeVisible()
  const save = section.getByRole('button', { name: 'Save' })
  await expect(save).toBeDisabled()

  // Out of bounds, or not a number: said on the field, nothing sent.
  await goal.fill('0')
  await newWords.fill('101')
  await save.click()
  await expect(section.getByText('Enter 1 or more')).toBeVisible()
  await expect(section.getByText('Enter 100 or less')).toBeVisible()
  await expect(goal).toHaveAttribute('aria-invalid', 'true')
  await goal.fill('1001')
  await newWords.fill('')
  await save.click()
  await expect(section.getByText('Enter 1,000 or less')).toBeVisible()
  await expect(section.getByText('Enter a whole number')).toBeVisible()
  expect(await settingsOf(context.request)).toMatchObject({ newWordsPerDay: 10, dailyGoal: 20 })

  await goal.fill('3')
  await newWords.fill('5')
  await save.click()
  await expect(toasts(page).getByText('Saved', { exact: true })).toBeVisible()
  await expect(save).toBeDisabled()
  expect(await settingsOf(context.request)).toMatchObject({ newWordsPerDay: 5, dailyGoal: 3, timeZone: 'UTC' })

  // Three reviews meet a goal of 3: today counts for the streak, and 2 of the 5 new words are left.
  await page.goto('/dashboard')
  const card = todayCard(page)
  await expect(card.getByRole('progressbar', { name: '3 of 3 reviews' })).toBeVisible()
  await expect(card.getByText('Today’s goal is met.')).toBeVisible()
  await expect(card.getByText('New today: 2', { exact: true })).toBeVisible()
  await expect(card.getByText('Streak: 1 day', { exact: true })).toBeVisible()
  await expect(card.getByText('Longest: 1 day', { exact: true })).toBeVisible()
  await expect(squares(card).last()).toHaveAttribute('data-level', 'met')
  await expect(card.getByText('Days practised: 1 · Days with the goal met: 1 · Reviews: 3')).toBeVisible()
})

test('nothing due and no new word left: "All done for today"', async ({ page, context, baseURL }) => {
  await learner(context, baseURL ?? '', 'Done Learner')
  await saveSettings(context.request, baseURL ?? '', { newWordsPerDay: 0 })
  await page.goto('/dashboard')
  const card = todayCard(page)
  await expect(card.getByText('All done for today', { exact: true })).toBeVisible()
  await expect(card.getByText('New today: 0', { exact: true })).toBeVisible()
  await expect(card.getByRole('link', { name: 'Practise now' })).toHaveCount(0)
})

test('without a current level no new word comes: the card says how to get one', async ({ page, context, baseURL }) => {
  await learner(context, baseURL ?? '', 'Levelless Learner', null)
  await page.goto('/dashboard')
  const card = todayCard(page)
  await expect(card.getByText('New today: 0', { exact: true })).toBeVisible()
  await expect(card.getByText(/^New words come from your current level/)).toBeVisible()
  await expect(card.getByRole('link', { name: 'Take the self-assessment' })).toHaveAttribute('href', '/assessment')
  await expect(card.getByRole('link', { name: 'Practise now' })).toHaveCount(0)
  await expect(card.getByText('All done for today')).toHaveCount(0)
})

test('a learner of French at A1 is told that A1 has no French words yet, on the dashboard and on /practice', async ({
  page,
  context,
  baseURL,
}) => {
  await learner(context, baseURL ?? '', 'French Learner', 'A1', 'fr')
  await page.goto('/dashboard')
  const card = todayCard(page)
  await expect(card.getByText('New today: 0', { exact: true })).toBeVisible()
  await expect(
    card.getByText('Level A1 has no words in French yet: for new words, choose another level or language in your learning profile.'),
  ).toBeVisible()
  await expect(card.getByRole('link', { name: 'Practise now' })).toHaveCount(0)
  await expect(card.getByText('All done for today')).toHaveCount(0)

  await page.goto('/practice')
  await expect(page.getByRole('heading', { level: 2, name: 'Nothing to practise yet' })).toBeVisible()
  await expect(page.getByText(/^Level A1 has no words in French yet\. They will come when they are added/)).toBeVisible()

  // Back to English: the A1 words come.
  await page.goto('/dashboard')
  const profile = page.getByRole('region', { name: 'Learning profile' })
  await profile.getByLabel('Language').selectOption({ label: 'English' })
  await profile.getByRole('button', { name: 'Save profile' }).click()
  await expect(card.getByRole('link', { name: 'Practise now' })).toBeVisible()
  await expect(card.getByText(/has no words in/)).toHaveCount(0)
})

test.describe('in Tokyo', () => {
  test.use({ timezoneId: 'Asia/Tokyo' })

  test("the browser's time zone is stored once the dashboard opens, and /account shows it", async ({
    page,
    context,
    baseURL,
  }) => {
    await learner(context, baseURL ?? '', 'Tokyo Learner')
    expect((await settingsOf(context.request)).timeZone).toBe('UTC')
    const sent: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().endsWith('/api/me/practice/settings')) sent.push(request.postData() ?? '')
    })
    await page.goto('/dashboard')
    await expect(todayCard(page).getByText('Due today: 0', { exact: true })).toBeVisible()
    await expect.poll(async () => (await settingsOf(context.request)).timeZone).toBe('Asia/Tokyo')
    expect(sent.map((body) => JSON.parse(body) as PracticeSettings)).toEqual([
      { newWordsPerDay: 10, dailyGoal: 20, timeZone: 'Asia/Tokyo' },
    ])
    // Stored now: the next page load has nothing to send.
    await page.reload()
    await expect(todayCard(page).getByText('Due today: 0', { exact: true })).toBeVisible()
    expect(sent).toHaveLength(1)
    await page.goto('/account')
    const section = practiceSection(page)
    await expect(section.getByText(/^Your day follows Asia\/Tokyo \(.+\), where it is \d{1,2}:\d{2}/)).toBeVisible()
    await expect(section.getByText('This browser is in')).toHaveCount(0)
    // The settings saved keep the zone.
    await section.getByLabel('Daily goal').fill('25')
    await section.getByRole('button', { name: 'Save' }).click()
    await expect(toasts(page).getByText('Saved', { exact: true })).toBeVisible()
    expect(await settingsOf(context.request)).toMatchObject({ dailyGoal: 25, timeZone: 'Asia/Tokyo' })
  })
})

for (const lang of interfaceLanguages) {
  for (const mode of colourModes) {
    test(`the Today card and the Practice settings are accessible (${lang}, ${mode})`, async ({ page, context, baseURL }) => {
      await prefer(page, mode, lang)
      await learner(context, baseURL ?? '', `Accessible ${lang} ${mode}`)
      await practise(context.request, baseURL ?? '', 2)
      const report = new ViolationReport()
      const words =
        lang === 'en'
          ? { today: 'Today', practice: 'Practice', streak: 'Streak: 0 days', reviews: '2 of 20 reviews', show: 'Show as table', goal: 'Daily goal' }
          : {
              today: ru.dashboard.todayTitle,
              practice: ru.account.practiceTitle,
              streak: fill(ru.dashboard.streak.many, { n: 0 }),
              reviews: fill(ru.dashboard.reviewsDone.many, { done: 2, goal: 20 }),
              show: ru.dashboard.showTable,
              goal: ru.account.dailyGoal,
            }

      await page.goto('/dashboard')
      const card = todayCard(page, words.today)
      await expect(card.getByText(words.streak, { exact: true })).toBeVisible()
      await expect(card.getByRole('progressbar', { name: words.reviews })).toBeVisible()
      await card.getByRole('button', { name: words.show }).click()
      await expect(card.getByRole('table')).toBeVisible()
      await settled(page, mode, lang)
      await report.check(page, 'dashboard with the Today card and its table')

      await page.goto('/account')
      const section = practiceSection(page, words.practice)
      await section.getByLabel(words.goal).fill('0')
      await section.getByRole('button').click()
      await expect(section.getByRole('alert')).toBeVisible()
      await expect(mainHeading(page)).toBeVisible()
      await settled(page, mode, lang)
      await report.check(page, 'account with the Practice section and an error')
      report.expectNone()
    })
  }
}
