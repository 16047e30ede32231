import type { APIRequestContext, BrowserContext, Page } from '@playwright/test'
import type { LevelPage } from '@/shared/levels'
import type { PracticeSettings } from '@/shared/practice'
import ru from '@/client/locales/ru'
import { mailsTo, signedInAs, waitForMail } from './helpers/accounts'
import { ViolationReport, colourModes, interfaceLanguages, prefer, settled } from './helpers/a11y'
import { expect, failedResource, mainHeading, test, toasts } from './helpers/fixtures'

// The ways to practise and the daily reminder on /account (PRODUCT §13), and the page of a
// reminder's "Stop these reminders" link: opening it changes nothing, its button turns them off.
// The server sweeps every 2 s here (REMINDER_SWEEP_SECONDS, playwright.config.ts), on the real clock.

test.use({ timezoneId: 'UTC' })

const practiceSection = (page: Page, name = 'Practice') => page.getByRole('region', { name, exact: true })
const settingsOf = async (request: APIRequestContext) => (await (await request.get('/api/me/practice/settings')).json()) as PracticeSettings

/** A confirmed learner of English at A1 (so new words wait), signed in in `context`. */
async function learner(context: BrowserContext, baseURL: string, name: string): Promise<string> {
  const email = await signedInAs(context, baseURL, name)
  const levels = (await (await context.request.get('/api/language-levels?pageSize=100')).json()) as LevelPage
  const a1 = levels.items.find((item) => item.code === 'A1')?.id ?? null
  const saved = await context.request.put('/api/me/profile', { headers: { Origin: baseURL }, data: { language: 'en', currentLevelId: a1, targetLevelId: null } })
  expect(saved.status(), await saved.text()).toBe(200)
  return email
}

/**
 * The hour (UTC) a reminder turned on now goes at within its 5 minutes: this one, unless it is
 * about to end (then the next one, once it has begun).
 */
async function hourUnderWay(page: Page): Promise<number> {
  const now = new Date()
  if (now.getUTCMinutes() >= 57) {
    await page.waitForTimeout(((60 - now.getUTCMinutes()) * 60 - now.getUTCSeconds() + 2) * 1000)
  }
  return new Date().getUTCHours()
}

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`

test('the ways to practise and the daily reminder are saved, kept, and need one way at least', async ({ page, context, baseURL }) => {
  await learner(context, baseURL ?? '', 'Ways Chooser')
  await page.goto('/account')
  const section = practiceSection(page)
  const ways = ['Flashcard', 'Type the answer', 'Choose the answer', 'Listen and type', 'Fill the gap']
  for (const way of ways) await expect(section.getByRole('checkbox', { name: way, exact: true })).toBeChecked()
  const reminder = section.getByRole('checkbox', { name: 'Daily reminder by email' })
  const time = section.getByRole('combobox', { name: 'Reminder time' })
  await expect(reminder).not.toBeChecked()
  await expect(time).toHaveValue('18')
  await expect(time.getByRole('option')).toHaveText(Array.from({ length: 24 }, (_, hour) => hourLabel(hour)))
  const save = section.getByRole('button', { name: 'Save' })

  // None on: said, nothing sent.
  for (const way of ways) await section.getByRole('checkbox', { name: way, exact: true }).uncheck()
  await save.click()
  await expect(section.getByRole('alert')).toHaveText('Choose at least one way to practise.')
  expect((await settingsOf(context.request)).ways).toHaveLength(5)

  await section.getByRole('checkbox', { name: 'Type the answer' }).check()
  await section.getByRole('checkbox', { name: 'Fill the gap' }).check()
  await reminder.check()
  await time.selectOption('07:00')
  await save.click()
  await expect(toasts(page).getByText('Saved', { exact: true })).toBeVisible()
  expect(await settingsOf(context.request)).toMatchObject({ ways: ['type', 'gap'], reminderEnabled: true, reminderHour: 7 })

  await page.reload()
  const again = practiceSection(page)
  await expect(again.getByRole('checkbox', { name: 'Type the answer' })).toBeChecked()
  await expect(again.getByRole('checkbox', { name: 'Fill the gap' })).toBeChecked()
  for (const way of ['Flashcard', 'Choose the answer', 'Listen and type']) await expect(again.getByRole('checkbox', { name: way, exact: true })).not.toBeChecked()
  await expect(again.getByRole('checkbox', { name: 'Daily reminder by email' })).toBeChecked()
  await expect(again.getByRole('combobox', { name: 'Reminder time' })).toHaveValue('7')
  await expect(again.getByRole('combobox', { name: 'Reminder time' }).locator('option:checked')).toHaveText('07:00')
})

test('in Russian, the same fields in Russian', async ({ page, context, baseURL }) => {
  await prefer(page, 'light', 'ru')
  await learner(context, baseURL ?? '', 'Russian Chooser')
  await page.goto('/account')
  const section = practiceSection(page, ru.account.practiceTitle)
  await expect(section.getByRole('group', { name: ru.account.waysTitle })).toBeVisible()
  for (const way of [ru.account.wayFlashcard, ru.account.wayType, ru.account.wayChoose, ru.account.wayListen, ru.account.wayGap]) {
    await section.getByRole('checkbox', { name: way, exact: true }).uncheck()
  }
  await section.getByRole('button', { name: ru.account.save }).click()
  await expect(section.getByRole('alert')).toHaveText(ru.account.waysRequired)
  await section.getByRole('checkbox', { name: ru.account.wayChoose, exact: true }).check()
  await section.getByRole('checkbox', { name: ru.account.reminderEnabled }).check()
  await section.getByRole('combobox', { name: ru.account.reminderTime }).selectOption('21:00')
  await section.getByRole('button', { name: ru.account.save }).click()
  await expect(page.getByRole('region', { name: /^Уведомления/ }).getByText(ru.account.saved, { exact: true })).toBeVisible()
  expect(await settingsOf(context.request)).toMatchObject({ ways: ['choose'], reminderEnabled: true, reminderHour: 21 })
})

test('a reminder turned on within its hour comes; its link shows a page, whose button stops them', async ({ page, context, baseURL }) => {
  const email = await learner(context, baseURL ?? '', 'Reminded Learner')
  await page.goto('/account')
  const section = practiceSection(page)
  const hour = await hourUnderWay(page)
  await section.getByRole('checkbox', { name: 'Daily reminder by email' }).check()
  await section.getByRole('combobox', { name: 'Reminder time' }).selectOption(hourLabel(hour))
  await section.getByRole('button', { name: 'Save' }).click()
  await expect(toasts(page).getByText('Saved', { exact: true })).toBeVisible()

  // Turned on within its hour: within 5 minutes (the server sweeps every 2 s here).
  const mail = await waitForMail(email, /^Time to practise: 10 cards are waiting$/)
  const stop = /^Stop these reminders: (\S+)$/m.exec(mail.text ?? '')?.[1]
  expect(stop, 'the "Stop these reminders" link').toBeDefined()
  const link = new URL(stop ?? '')
  expect(link.pathname).toBe('/reminders/unsubscribe')

  // Opening it (as a mail scanner would) changes nothing.
  await page.goto(`${link.pathname}${link.search}`)
  await expect(mainHeading(page)).toHaveText('Daily reminders')
  const button = page.getByRole('button', { name: 'Stop these reminders' })
  await expect(button).toBeVisible()
  expect((await settingsOf(context.request)).reminderEnabled).toBe(true)

  // Signed out, the button still works: the link's token is the authority.
  await context.clearCookies()
  await button.click()
  await expect(page.getByText('Reminders are off: no more reminder emails will come.')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Open your account' })).toHaveAttribute('href', '/account')
  await page.reload()
  await expect(page.getByText('Reminders are off: no more reminder emails will come.')).toBeVisible()
  expect(await mailsTo(email)).toHaveLength(2)
})

test('a link that is not one of ours says so', async ({ page, diagnostics }) => {
  diagnostics.allowConsoleError(failedResource(400))
  await page.goto('/reminders/unsubscribe?token=not-a-token')
  await expect(mainHeading(page)).toHaveText('Daily reminders')
  await expect(page.getByRole('alert')).toContainText('This link is not valid.')
  await expect(page.getByRole('button', { name: 'Stop these reminders' })).toHaveCount(0)
  await page.goto('/reminders/unsubscribe')
  await expect(page.getByText(/^Open the “Stop these reminders” link of a reminder email/)).toBeVisible()
})

for (const lang of interfaceLanguages) {
  for (const mode of colourModes) {
    test(`the reminders' page and the Practice settings are accessible (${lang}, ${mode})`, async ({ page, context, baseURL, diagnostics }) => {
      diagnostics.allowConsoleError(failedResource(400))
      await prefer(page, mode, lang)
      await learner(context, baseURL ?? '', `Reminder ${lang} ${mode}`)
      const report = new ViolationReport()
      const words =
        lang === 'en'
          ? { practice: 'Practice', way: 'Flashcard', save: 'Save', title: 'Daily reminders' }
          : { practice: ru.account.practiceTitle, way: ru.account.wayFlashcard, save: ru.account.save, title: ru.reminders.title }
      await page.goto('/account')
      const section = practiceSection(page, words.practice)
      await section.getByRole('checkbox', { name: words.way, exact: true }).check()
      await expect(mainHeading(page)).toBeVisible()
      await settled(page, mode, lang)
      await report.check(page, 'account with the ways to practise and the reminder')

      await page.goto('/reminders/unsubscribe?token=not-a-token')
      await expect(mainHeading(page)).toHaveText(words.title)
      await expect(page.getByRole('alert')).toBeVisible()
      await settled(page, mode, lang)
      await report.check(page, 'the reminders page with a link that is not valid')
      report.expectNone()
    })
  }
}
