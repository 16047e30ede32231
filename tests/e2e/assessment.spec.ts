import type { APIRequestContext, Page } from '@playwright/test'
import type { AssessmentState } from '@/shared/can-do'
import ru from '@/client/locales/ru'
import { signedInAs, userMenuButton } from './helpers/accounts'
import {
  type InterfaceLanguage,
  ViolationReport,
  colourModes,
  expectHeadingFocused,
  expectVisibleFocus,
  interfaceLanguages,
  press,
  prefer,
  quiet,
  settled,
  tabTo,
} from './helpers/a11y'
import { expect, mainHeading, test, toasts } from './helpers/fixtures'

// The learner's self-assessment (docs/product.md §10): taken by keyboard alone in both languages
// and colour modes, left and resumed, started again, and its level used as the current level.

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/{(\w+)}/g, (_, key: string) => String(values[key]))

/** The labels the learner reads and presses, in one interface language. */
function wordsIn(lang: InterfaceLanguage) {
  const en = {
    title: 'Self-assessment',
    start: 'Start self-assessment',
    skillOf: (n: number) => `Skill ${n} of 5`,
    listening: 'Listening',
    reading: 'Reading',
    can: 'I can do this',
    notYet: 'Not yet',
    back: 'Back',
    result: 'Your result',
    overall: (level: string) => `Overall: ${level}`,
    showTable: 'Show as a table',
    useLevel: 'Use as my current level',
    levelUpdated: 'Current level updated',
    startAgain: 'Start again',
    yourSkills: 'Your skills',
    takeAssessment: 'Take the self-assessment',
    takeAgain: 'Take it again',
    taken: /^Taken \S/,
    currentLevel: 'Current level',
    statementOf: (n: number, count: number, level: string) => `Level ${level} · statement ${n} of ${count}`,
  }
  if (lang === 'en') return en
  return {
    title: ru.assessment.title,
    start: ru.assessment.start,
    skillOf: (n: number) => fill(ru.assessment.skillOf, { n, count: 5 }),
    listening: ru.skills.listening,
    reading: ru.skills.reading,
    can: ru.assessment.can,
    notYet: ru.assessment.notYet,
    back: ru.assessment.back,
    result: ru.assessment.resultTitle,
    overall: (level: string) => fill(ru.skills.overall, { level }),
    showTable: ru.assessment.showTable,
    useLevel: ru.assessment.useLevel,
    levelUpdated: ru.assessment.levelUpdated,
    startAgain: ru.assessment.startAgain,
    yourSkills: ru.dashboard.skillsTitle,
    takeAssessment: ru.dashboard.takeAssessment,
    takeAgain: ru.dashboard.takeAgain,
    taken: /^Пройдено \S/,
    currentLevel: ru.dashboard.currentLevel,
    statementOf: (n: number, count: number, level: string) => fill(ru.assessment.statementOf, { n, count, level }),
  } satisfies typeof en
}

const statement = (page: Page) => page.getByRole('main').locator('blockquote')
/** "Level A1 · statement 2 of 3": where the learner is. */
const placeLine = (page: Page) => page.getByRole('main').getByText(/^(Level|Уровень) \S+ · /)

/**
 * Answers with keys 1 and 2 until the result shows: "I can do this" at A1 and "Not yet" above,
 * so that every skill ends at A1 (A1 reached, A2 and B1 missed). Each key waits for the next
 * statement (a key pressed while the answer is being saved is not taken).
 */
async function answerUntilResult(page: Page, result: string) {
  // Read without waiting: the statement goes as the result comes.
  const where = async () => {
    const heading = await mainHeading(page).allTextContents()
    if (heading.includes(result)) return 'done'
    return [...(await placeLine(page).allTextContents()), ...(await statement(page).allTextContents())].join(' ')
  }
  for (let presses = 0; presses < 200; presses += 1) {
    const before = await where()
    if (before === 'done') return presses
    const level = /\b([ABC][12])\b/.exec(before)?.[1]
    await page.keyboard.press(level === 'A1' ? '1' : '2')
    await expect.poll(where).not.toBe(before)
  }
  throw new Error('no result after 200 answers')
}

/** Answers through the API what the assessment in progress asks, `count` statements (all "Not yet"). */
async function answerByApi(request: APIRequestContext, baseURL: string, count: number, answer: 'can' | 'not-yet' = 'not-yet') {
  for (let i = 0; i < count; i += 1) {
    const state = (await (await request.get('/api/me/assessment')).json()) as AssessmentState
    const asking = state.inProgress?.asking
    if (!asking) return
    const given = new Set(state.inProgress?.answers.map((a) => a.statementId))
    const next = asking.statementIds.find((id) => !given.has(id))
    const answered = await request.post('/api/me/assessment/answers', {
      headers: { Origin: baseURL },
      data: { statementId: next, answer },
    })
    expect(answered.status()).toBe(200)
  }
}

for (const lang of interfaceLanguages) {
  for (const mode of colourModes) {
    test(`the whole self-assessment by keyboard alone (${lang}, ${mode}), accessible at every step`, async ({
      page,
      context,
      baseURL,
    }) => {
      test.setTimeout(120_000)
      const w = wordsIn(lang)
      await prefer(page, mode, lang)
      await signedInAs(context, baseURL ?? '', `Assessed ${lang} ${mode}`)
      const report = new ViolationReport()

      // The dashboard offers it while there is no result.
      await page.goto('/dashboard')
      const card = page.getByRole('region', { name: w.yourSkills })
      const take = card.getByRole('link', { name: w.takeAssessment })
      await expect(take).toBeVisible()
      await settled(page, mode, lang)
      await report.check(page, 'dashboard: Your skills, none yet')

      await mainHeading(page).focus()
      await tabTo(page, take)
      await page.keyboard.press('Enter')
      await expect(page).toHaveURL('/assessment')
      await expectHeadingFocused(page, w.title)
      await settled(page, mode, lang)
      await report.check(page, 'assessment: start')

      await tabTo(page, page.getByRole('button', { name: w.start }))
      await page.keyboard.press('Enter')
      await expect(page.getByText(w.skillOf(1), { exact: true })).toBeVisible()
      await expect(page.getByRole('heading', { level: 2, name: w.listening })).toBeVisible()
      await expect(placeLine(page)).toHaveText(w.statementOf(1, 3, 'A1'))
      await settled(page, mode, lang)
      await report.check(page, 'assessment: a statement')

      // Arrow keys move between the two answers (one Tab stop), Enter chooses.
      const can = page.getByRole('button', { name: w.can })
      const notYet = page.getByRole('button', { name: w.notYet })
      await expect(can, 'focus goes to the first answer').toBeFocused()
      await expectVisibleFocus(page, 'starting')
      const first = await statement(page).textContent()
      await press(page, 'ArrowRight', notYet)
      await press(page, 'ArrowLeft', can)
      await page.keyboard.press('Enter')
      await expect(placeLine(page)).toHaveText(w.statementOf(2, 3, 'A1'))
      await expect(can, 'focus stays on the answers').toBeFocused()
      // "Back" to change it: the earlier answer shows as pressed; 2 changes it, and on we go.
      await tabTo(page, page.getByRole('button', { name: w.back }))
      await page.keyboard.press('Enter')
      await expect(statement(page)).toHaveText(first ?? '')
      await expect(can).toHaveAttribute('aria-pressed', 'true')
      await page.keyboard.press('2')
      await expect(placeLine(page)).toHaveText(w.statementOf(2, 3, 'A1'))
      await page.keyboard.press('1')
      await expect(placeLine(page)).toHaveText(w.statementOf(3, 3, 'A1'))
      // One "Not yet" of three at A1 is below 80 %: back twice to change it (focus stayed on
      // "Back" while the keys answered), then forward again.
      await expect(page.getByRole('button', { name: w.back })).toBeFocused()
      await page.keyboard.press('Enter')
      await expect(placeLine(page)).toHaveText(w.statementOf(2, 3, 'A1'))
      await page.keyboard.press('Enter')
      await expect(placeLine(page)).toHaveText(w.statementOf(1, 3, 'A1'))
      await expect(notYet).toHaveAttribute('aria-pressed', 'true')
      await page.keyboard.press('1')
      // Forward through the earlier answers, then on to the first unanswered statement.
      await expect(placeLine(page)).toHaveText(w.statementOf(2, 3, 'A1'))
      await expect(can).toHaveAttribute('aria-pressed', 'true')
      await page.keyboard.press('1')
      await expect(placeLine(page)).toHaveText(w.statementOf(3, 3, 'A1'))
      await page.keyboard.press('1')
      await expect(page.getByText(w.skillOf(1), { exact: true })).toBeVisible()
      await expect(placeLine(page)).toHaveText(w.statementOf(1, 3, 'A2'))

      await answerUntilResult(page, w.result)
      await expectHeadingFocused(page, w.result)
      await expect(page.getByRole('heading', { level: 2, name: w.overall('A1') })).toBeVisible()
      await tabTo(page, page.getByText(w.showTable))
      await page.keyboard.press('Enter')
      const rows = page.getByRole('main').getByRole('table').getByRole('row')
      await expect(rows).toHaveCount(6)
      await expect(rows.nth(1)).toHaveText(new RegExp(`${w.listening}\\s*A1`))
      await settled(page, mode, lang)
      await report.check(page, 'assessment: result')

      await mainHeading(page).focus()
      await tabTo(page, page.getByRole('button', { name: w.useLevel }))
      await page.keyboard.press('Enter')
      const notifications =
        lang === 'en' ? toasts(page) : page.getByRole('region', { name: fill(ru.ui.notificationsRegion, { hotkey: 'F8' }) })
      await expect(notifications).toContainText(w.levelUpdated)

      await tabTo(page, page.getByRole('button', { name: w.startAgain }))
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('alertdialog')
      await expect(dialog).toBeVisible()
      // The page under the dialog is hidden from the accessibility tree (no heading to wait for).
      await quiet(page)
      await report.check(page, 'assessment: Start again confirmation')
      await page.keyboard.press('Escape')
      await expect(dialog).toBeHidden()
      await expect(page.getByRole('button', { name: w.startAgain })).toBeFocused()

      // The dashboard: the result by skill, when, "Take it again"; the current level it was given.
      await page.goto('/dashboard')
      await expect(card.getByText(w.overall('A1'))).toBeVisible()
      await expect(card.getByText(w.taken)).toBeVisible()
      await expect(card.getByRole('link', { name: w.takeAgain })).toHaveAttribute('href', '/assessment?again=1')
      await expect(page.getByRole('combobox', { name: w.currentLevel })).toHaveValue(/\d+/)
      await expect(page.getByRole('combobox', { name: w.currentLevel }).locator('option:checked')).toHaveText(/^A1 /)
      await settled(page, mode, lang)
      await report.check(page, 'dashboard: Your skills with a result')

      report.expectNone()
    })
  }
}

test('leaving mid-way keeps the answers: coming back resumes where the learner was', async ({ page, context, baseURL }) => {
  const w = wordsIn('en')
  await signedInAs(context, baseURL ?? '', 'Resuming Learner')
  await page.goto('/assessment')
  await page.getByRole('button', { name: w.start }).click()
  // A key counts once the statement shows (what comes next depends on the answers).
  await expect(placeLine(page)).toHaveText(w.statementOf(1, 3, 'A1'))
  await page.keyboard.press('1')
  await expect(placeLine(page)).toHaveText(w.statementOf(2, 3, 'A1'))
  await page.keyboard.press('1')
  await expect(placeLine(page)).toHaveText(w.statementOf(3, 3, 'A1'))
  const third = await statement(page).textContent()

  // Away (the dashboard says how far it went and offers to continue), then back, and after a reload.
  await page.goto('/dashboard')
  const skills = page.getByRole('region', { name: w.yourSkills })
  await expect(skills.getByText(/^Started .+: 0 of 5 skills done\.$/)).toBeVisible()
  await skills.getByRole('link', { name: 'Continue the self-assessment' }).click()
  await expect(placeLine(page)).toHaveText(w.statementOf(3, 3, 'A1'))
  await expect(statement(page)).toHaveText(third ?? '')
  await page.reload()
  await expect(placeLine(page)).toHaveText(w.statementOf(3, 3, 'A1'))
  // The earlier answers are there to change.
  await page.getByRole('button', { name: w.back }).click()
  await expect(placeLine(page)).toHaveText(w.statementOf(2, 3, 'A1'))
  await expect(page.getByRole('button', { name: w.can })).toHaveAttribute('aria-pressed', 'true')
  // Home and End move between the two answers, as the arrows do.
  await page.getByRole('button', { name: w.can }).focus()
  await page.keyboard.press('End')
  await expect(page.getByRole('button', { name: w.notYet })).toBeFocused()
  await page.keyboard.press('Home')
  await expect(page.getByRole('button', { name: w.can })).toBeFocused()
})

test('"Start again" clears the answers after a confirmation; a finished result stays', async ({ page, context, baseURL }) => {
  const w = wordsIn('en')
  await signedInAs(context, baseURL ?? '', 'Restarting Learner')
  await page.goto('/assessment')
  await page.getByRole('button', { name: w.start }).click()
  await expect(placeLine(page)).toHaveText(w.statementOf(1, 3, 'A1'))
  await answerByApi(context.request, baseURL ?? '', 6)
  await page.reload()
  await expect(page.getByRole('heading', { level: 2, name: w.reading })).toBeVisible()

  // Mid-way: cancelling keeps everything; confirming starts from the first skill.
  await page.getByRole('button', { name: w.startAgain }).click()
  const dialog = page.getByRole('alertdialog')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('heading', { level: 2, name: w.reading })).toBeVisible()
  await page.getByRole('button', { name: w.startAgain }).click()
  await dialog.getByRole('button', { name: w.startAgain }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('heading', { level: 2, name: w.listening })).toBeVisible()
  await expect(placeLine(page)).toHaveText(w.statementOf(1, 3, 'A1'))
  await expect(page.getByRole('button', { name: w.back })).toHaveAttribute('aria-disabled', 'true')
  const state = (await (await context.request.get('/api/me/assessment')).json()) as AssessmentState
  expect(state.inProgress?.answers).toEqual([])

  // Finished ("Not yet" throughout: below A1), then started again from the result.
  await answerByApi(context.request, baseURL ?? '', 100)
  await page.reload()
  await expect(mainHeading(page)).toHaveText(w.result)
  await expect(page.getByRole('heading', { level: 2, name: w.overall('Below A1') })).toBeVisible()
  await expect(page.getByRole('button', { name: w.useLevel })).toHaveCount(0)
  // Below the first level, the first is where to start.
  await page.getByRole('button', { name: 'Start with A1 as my current level' }).click()
  await expect(toasts(page)).toContainText('Current level updated')
  const profile = (await (await context.request.get('/api/me/profile')).json()) as { currentLevelId: number | null }
  const levels = (await (await context.request.get('/api/language-levels?sort=position&pageSize=100')).json()) as { items: { id: number; code: string }[] }
  expect(profile.currentLevelId).toBe(levels.items.find((level) => level.code === 'A1')?.id)
  await page.getByRole('button', { name: w.startAgain }).click()
  await dialog.getByRole('button', { name: w.startAgain }).click()
  await expect(placeLine(page)).toHaveText(w.statementOf(1, 3, 'A1'))
  await expect(page.getByRole('button', { name: w.can })).toBeFocused()
  await page.goto('/dashboard')
  await expect(page.getByRole('region', { name: w.yourSkills }).getByText(w.overall('Below A1'))).toBeVisible()
  // The new one, under way, is offered to continue in place of "Take it again".
  await expect(page.getByRole('region', { name: w.yourSkills }).getByRole('link', { name: 'Continue the self-assessment' })).toBeVisible()
  await expect(page.getByRole('region', { name: w.yourSkills }).getByRole('link', { name: w.takeAgain })).toHaveCount(0)
})

test('a learner without a current level finds the self-assessment’s level on the dashboard’s "Today"', async ({ page, context, baseURL }) => {
  const w = wordsIn('en')
  await signedInAs(context, baseURL ?? '', 'Placed Learner')
  const today = page.getByRole('region', { name: 'Today', exact: true })
  await page.goto('/dashboard')
  await expect(today.getByText(/^New words come from your current level: set it/)).toBeVisible()
  await expect(today.getByRole('link', { name: w.takeAssessment })).toBeVisible()

  // "I can" throughout: C2 in every skill.
  expect((await context.request.post('/api/me/assessment', { headers: { Origin: baseURL ?? '' } })).status()).toBeLessThan(300)
  await answerByApi(context.request, baseURL ?? '', 200, 'can')
  await page.reload()
  await expect(page.getByRole('region', { name: w.yourSkills }).getByText(w.overall('C2'))).toBeVisible()
  await expect(today.getByText(/Your self-assessment placed you at C2: use it from your result/)).toBeVisible()
  await today.getByRole('link', { name: 'See your result' }).click()
  await expect(mainHeading(page)).toHaveText(w.result)
  await expect(page.getByRole('button', { name: w.useLevel })).toBeVisible()
})

test('a learner finds the self-assessment in the user menu and the command palette', async ({ page, context, baseURL }) => {
  await signedInAs(context, baseURL ?? '', 'Finding Learner')
  await page.goto('/dashboard')
  await userMenuButton(page, 'Finding Learner').click()
  await page.getByRole('banner').getByRole('link', { name: 'Self-assessment' }).click()
  await expect(page).toHaveURL('/assessment')
  await expectHeadingFocused(page, 'Self-assessment', { keyboard: false })

  await page.goto('/dashboard')
  // The dashboard as a learner sees it (the session read): the header's palette host is settled.
  await expect(mainHeading(page)).toHaveText('Hello, Finding Learner!')
  await expect(userMenuButton(page, 'Finding Learner')).toBeVisible()
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog')
  await expect(palette.getByRole('group', { name: 'Your pages' })).toBeVisible()
  await palette.getByRole('combobox').fill('self')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL('/assessment')
  await expect(mainHeading(page)).toHaveText('Self-assessment')
})
