import type { BrowserContext, Page } from '@playwright/test'
import type { LevelPage } from '@/shared/levels'
import ru from '@/client/locales/ru'
import { expectHeadingFocused, tabTo } from './helpers/a11y'
import { signedInAs } from './helpers/accounts'
import { middayZone } from './helpers/clock'
import { expect, languageSelect, mainHeading, test } from './helpers/fixtures'

// "Your progress" (docs/product.md §13): a learner practises, opens /progress from the dashboard
// and reads the figures, the charts' sentences and their tables, for 30 and 90 days — by keyboard
// alone —; then in Russian.

// The cards graded here are due again within the learner's day however late the test runs.
test.use({ timezoneId: middayZone })

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/{(\w+)}/g, (_, key: string) => String(values[key]))

/** A new learner of English at A1 who may start `newWords` new words a day. */
async function learnerAtA1(context: BrowserContext, baseURL: string, name: string, newWords: number) {
  await signedInAs(context, baseURL, name)
  const levels = (await (await context.request.get('/api/language-levels?pageSize=100')).json()) as LevelPage
  const a1 = levels.items.find((level) => level.code === 'A1')
  const profile = await context.request.put('/api/me/profile', {
    headers: { Origin: baseURL },
    data: { language: 'en', currentLevelId: a1?.id ?? null, targetLevelId: null },
  })
  expect(profile.status(), await profile.text()).toBe(200)
  const current = (await (await context.request.get('/api/me/practice/settings')).json()) as Record<string, unknown>
  const settings = await context.request.put('/api/me/practice/settings', {
    headers: { Origin: baseURL },
    data: { ...current, newWordsPerDay: newWords, dailyGoal: 20, timeZone: middayZone, ways: ['flashcard'] },
  })
  expect(settings.status(), await settings.text()).toBe(200)
}

const region = (page: Page, name: string) => page.getByRole('main').getByRole('region', { name, exact: true })

test('a learner practises, then reads their progress: reviews a day, retention, the next 30 days, the cards by state', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000)
  await learnerAtA1(context, baseURL ?? '', 'Progress Learner', 3)

  // Three new words, each shown and graded "Good" by keyboard on the practice page.
  await page.goto('/practice')
  for (let card = 0; card < 3; card++) {
    await expect(page.getByRole('button', { name: 'Show answer' })).toBeVisible()
    await page.keyboard.press('Space')
    await expect(page.getByRole('button', { name: /^Good/ })).toBeFocused()
    await page.keyboard.press('3')
  }
  await expect(page.getByRole('button', { name: 'Show answer' })).toBeHidden()
  await expect.poll(async () => ((await (await context.request.get('/api/me/practice/today')).json()) as { done: number }).done).toBe(3)

  // From the dashboard's "Today" card, by keyboard from here on.
  await page.goto('/dashboard')
  await tabTo(page, page.getByRole('region', { name: 'Today', exact: true }).getByRole('link', { name: 'Your progress' }))
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL('/progress')
  await expectHeadingFocused(page, 'Your progress')
  await expect(page).toHaveTitle(/^Your progress · /)

  const reviews = region(page, 'Reviews a day')
  await expect(reviews.getByText('3 reviews in the last 30 days, on 1 of them; 3 today.')).toBeVisible()
  const last30 = reviews.getByRole('button', { name: 'Last 30 days' })
  const last90 = reviews.getByRole('button', { name: 'Last 90 days' })
  await expect(last30).toHaveAttribute('aria-pressed', 'true')
  await expect(last90).toHaveAttribute('aria-pressed', 'false')
  // The drawing is hidden from assistive technology; its table is the alternative.
  await expect(reviews.locator('div[aria-hidden="true"] > svg')).toBeVisible()
  await expect(reviews.getByRole('table')).toBeHidden()
  await tabTo(page, reviews.getByRole('button', { name: 'Show as table' }))
  await page.keyboard.press('Enter')
  await expect(reviews.getByRole('button', { name: 'Hide table' })).toHaveAttribute('aria-expanded', 'true')
  const table30 = reviews.getByRole('table', { name: 'Reviews a day: Last 30 days' })
  await expect(table30.getByRole('columnheader')).toHaveText(['Date', 'Reviews'])
  // 30 days and the header; today last, with its 3 reviews.
  await expect(table30.getByRole('row')).toHaveCount(31)
  await expect(table30.getByRole('row').last().getByRole('cell')).toHaveText('3')

  await tabTo(page, last90, { backwards: true })
  await page.keyboard.press('Enter')
  await expect(last90).toHaveAttribute('aria-pressed', 'true')
  await expect(reviews.getByText('3 reviews in the last 90 days, on 1 of them; 3 today.')).toBeVisible()
  await expect(reviews.getByRole('table', { name: 'Reviews a day: Last 90 days' }).getByRole('row')).toHaveCount(91)

  // No card had been learnt: retention says why it is empty.
  const retention = region(page, 'True retention')
  await expect(retention.getByText('No reviews of learnt cards in the last 30 days yet.')).toBeVisible()

  // The three cards are due again later today.
  const forecast = region(page, 'Next 30 days')
  await expect(forecast.getByText('3 cards due in the next 30 days, 3 of them today.')).toBeVisible()
  await tabTo(page, forecast.getByRole('button', { name: 'Show as table' }))
  await page.keyboard.press('Enter')
  const forecastTable = forecast.getByRole('table', { name: 'Next 30 days' })
  await expect(forecastTable.getByRole('columnheader')).toHaveText(['Date', 'Cards due'])
  await expect(forecastTable.getByRole('row')).toHaveCount(31)
  await expect(forecastTable.getByRole('row').nth(1).getByRole('cell')).toHaveText('3')

  // The A1 words: three in learning, the others new.
  const states = region(page, 'Cards by state')
  // Each term's number is the definition after it (shown above it).
  const figure = (term: string) => states.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]')
  await expect(figure('Learning')).toHaveText('3')
  await expect(figure('Review')).toHaveText('0')
  await expect(figure('Suspended')).toHaveText('0')
  const newWords = Number(await figure('New').textContent())
  expect(newWords).toBeGreaterThan(0)
  await expect(states.getByText(`${newWords + 3} cards in all.`)).toBeVisible()

  // In Russian: the same page, its words and numbers in the language (the 90 days still chosen).
  await languageSelect(page).selectOption({ label: 'Русский' })
  const t = ru.progress
  await expect(mainHeading(page)).toHaveText(t.title)
  await expect(page).toHaveTitle(new RegExp(`^${t.title} · `))
  const reviewsRu = region(page, t.reviewsTitle)
  await expect(reviewsRu.getByText(fill(t.reviewsSummary.few, { count: 3, span: 90, days: 1, today: 3 }))).toBeVisible()
  await expect(reviewsRu.getByRole('button', { name: t.last90 })).toHaveAttribute('aria-pressed', 'true')
  await expect(reviewsRu.getByRole('table', { name: `${t.reviewsTitle}: ${t.last90}` }).getByRole('columnheader')).toHaveText([t.date, t.reviews])
  await expect(region(page, t.retentionTitle).getByText(t.retentionNone)).toBeVisible()
  await expect(region(page, t.forecastTitle).getByText(fill(t.forecastSummary.few, { count: 3, today: 3 }))).toBeVisible()
  await expect(region(page, t.statesTitle).getByText(t.stateLearning, { exact: true })).toBeVisible()
})
