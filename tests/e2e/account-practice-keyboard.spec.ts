import type { APIRequestContext, Locator, Page } from '@playwright/test'
import type { PracticeSettings } from '@/shared/practice'
import { expectHeadingFocused, press, quiet, tabTo } from './helpers/a11y'
import { signedInAs } from './helpers/accounts'
import { accessibilityViolations, expect, test, toasts } from './helpers/fixtures'

// The "Practice" settings on /account (docs/product.md §13) by keyboard alone: Tab and Shift+Tab
// from stop to stop, Space on the checkboxes, arrows in the selects, Enter or Space on "Save".
// Two ways turned off, the reminder turned on and moved, the desired retention changed: what the
// page shows, what the API keeps, what a reload shows. Then every way off: the error shown and
// announced, tied to the group, nothing sent, and axe on the page in that state.

// The browser's zone is the learner's stored one (UTC until changed): the page sends no zone of its
// own, which would save the settings and reset the form under the keys.
test.use({ timezoneId: 'UTC' })

const ways = ['Flashcard', 'Type the answer', 'Choose the answer', 'Listen and type', 'Fill the gap'] as const
const waysRequired = 'Choose at least one way to practise.'

const settingsOf = async (request: APIRequestContext) => {
  const response = await request.get('/api/me/practice/settings')
  expect(response.status(), await response.text()).toBe(200)
  return (await response.json()) as PracticeSettings
}

/** The practice settings the page sends (PUT), as JSON bodies, in order. */
function settingsSent(page: Page): Record<string, unknown>[] {
  const sent: Record<string, unknown>[] = []
  page.on('request', (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname === '/api/me/practice/settings') {
      sent.push(JSON.parse(request.postData() ?? '{}') as Record<string, unknown>)
    }
  })
  return sent
}

function practice(page: Page) {
  const section = page.getByRole('main').getByRole('region', { name: 'Practice', exact: true })
  return {
    section,
    group: section.getByRole('group', { name: 'Ways to practise' }),
    way: (name: (typeof ways)[number]) => section.getByRole('checkbox', { name, exact: true }),
    reminder: section.getByRole('checkbox', { name: 'Daily reminder by email' }),
    hour: section.getByRole('combobox', { name: 'Reminder time' }),
    save: section.getByRole('button', { name: 'Save', exact: true }),
    retention: section.getByRole('combobox', { name: 'Desired retention' }),
  }
}

/** /account opened, the practice settings read (the retention select is enabled once they are), nothing loading. */
async function openAccount(page: Page) {
  await page.goto('/account')
  const p = practice(page)
  await expect(p.way('Flashcard')).toBeVisible()
  await expect(p.retention).toBeEnabled()
  await quiet(page)
  return p
}

const selectedText = (select: Locator) => select.locator('option:checked')

/**
 * The focused control can be seen: what is on top at its centre is the control itself, not the
 * sticky header scrolled over it (WCAG 2.4.11, focus not obscured).
 */
async function expectFocusUncovered(control: Locator) {
  await expect(control).toBeFocused()
  const onTop = await control.evaluate((element) => {
    const { left, top, width, height } = element.getBoundingClientRect()
    const hit = document.elementFromPoint(left + width / 2, top + height / 2)
    return hit === element ? 'the control' : (hit?.outerHTML.slice(0, 120) ?? 'nothing (off screen)')
  })
  expect(onTop, 'what is on top at the centre of the focused control').toBe('the control')
}

test('by keyboard alone: two ways off, the reminder on at another hour, another retention; saved, kept, shown after a reload', async ({
  page,
  context,
  baseURL,
}) => {
  await signedInAs(context, baseURL ?? '', 'Keyboard Practiser')
  const sent = settingsSent(page)
  const p = await openAccount(page)
  // The defaults: every way on, no reminder (at 18:00), retention 0.90.
  for (const way of ways) await expect(p.way(way)).toBeChecked()
  await expect(p.reminder).not.toBeChecked()
  await expect(p.hour).toHaveValue('18')
  await expect(p.retention).toHaveValue('0.9')
  await expect(p.save).toBeDisabled()

  // Tab to the first way, then from way to way: "Type the answer" and "Listen and type" off.
  await tabTo(page, p.way('Flashcard'))
  await press(page, 'Tab', p.way('Type the answer'))
  await page.keyboard.press('Space')
  await expect(p.way('Type the answer')).not.toBeChecked()
  await expect(p.way('Type the answer')).toBeFocused()
  await press(page, 'Tab', p.way('Choose the answer'))
  await press(page, 'Tab', p.way('Listen and type'))
  await page.keyboard.press('Space')
  await expect(p.way('Listen and type')).not.toBeChecked()
  await press(page, 'Tab', p.way('Fill the gap'))
  // A change to save: the button is on.
  await expect(p.save).toBeEnabled()

  // The reminder on, then its hour two later by the arrow key.
  await press(page, 'Tab', p.reminder)
  await page.keyboard.press('Space')
  await expect(p.reminder).toBeChecked()
  await press(page, 'Tab', p.hour)
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(p.hour).toHaveValue('20')
  await expect(selectedText(p.hour)).toHaveText('20:00')
  await expect(p.hour).toBeFocused()

  // Past "Save" to the desired retention, saved as soon as it is chosen: two steps by arrows,
  // focus staying on the select the whole time (one save after the other).
  await press(page, 'Tab', p.save)
  await press(page, 'Tab', p.retention)
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(p.retention).toHaveValue('0.92')
  await expect(toasts(page).getByText('Desired retention saved', { exact: true }).first()).toBeVisible()
  await expect(p.retention).toBeEnabled()
  await expect(p.retention).toBeFocused()
  // Both saves done (the hint says "Saving…" while one is under way), the last one kept.
  await expect(p.retention).toHaveAccessibleDescription(/^(≈ [\d.,]+ reviews? a day\. )?How likely you are to remember/)
  expect((await settingsOf(page.request)).desiredRetention).toBe(0.92)
  // Saving the retention left the form's changes, not saved yet, as they were.
  await expect(p.way('Type the answer')).not.toBeChecked()
  await expect(p.way('Listen and type')).not.toBeChecked()
  await expect(p.reminder).toBeChecked()
  await expect(p.hour).toHaveValue('20')

  // Back to "Save", Enter.
  await press(page, 'Shift+Tab', p.save)
  await expectFocusUncovered(p.save)
  await page.keyboard.press('Enter')
  await expect(toasts(page).getByText('Saved', { exact: true })).toBeVisible()
  // The saved settings replace the form (a fresh, unchanged form: "Save" off again); focus, whose
  // button went with it, goes to the page heading (docs/decisions/0008-focus-after-navigation.md).
  await expectHeadingFocused(page, 'Account')
  await expect(p.save).toBeDisabled()

  // What the API keeps: the ways in their order, the reminder and its hour, the retention; the
  // numbers as they were.
  expect(await settingsOf(page.request)).toMatchObject({
    ways: ['flashcard', 'choose', 'gap'],
    reminderEnabled: true,
    reminderHour: 20,
    desiredRetention: 0.92,
    newWordsPerDay: 10,
    dailyGoal: 20,
    timeZone: 'UTC',
  })
  // The form's save sent its fields, the retention's only the retention with the numbers and zone.
  expect(sent).toHaveLength(3)
  expect(sent.at(-1)).toMatchObject({ ways: ['flashcard', 'choose', 'gap'], reminderEnabled: true, reminderHour: 20 })
  expect(sent.at(-1)).not.toHaveProperty('desiredRetention')

  // After a reload the controls show them.
  await page.reload()
  const again = await openAccount(page)
  for (const way of ['Flashcard', 'Choose the answer', 'Fill the gap'] as const) await expect(again.way(way)).toBeChecked()
  for (const way of ['Type the answer', 'Listen and type'] as const) await expect(again.way(way)).not.toBeChecked()
  await expect(again.reminder).toBeChecked()
  await expect(again.hour).toHaveValue('20')
  await expect(selectedText(again.hour)).toHaveText('20:00')
  await expect(again.retention).toHaveValue('0.92')
  await expect(selectedText(again.retention)).toHaveText(/^0\.92\b/)
  await expect(again.save).toBeDisabled()
})

test('by keyboard alone: every way off is refused with a message tied to the group and announced, nothing is saved; axe finds nothing', async ({
  page,
  context,
  baseURL,
}) => {
  await signedInAs(context, baseURL ?? '', 'Keyboard Refused')
  const sent = settingsSent(page)
  const p = await openAccount(page)
  const before = await settingsOf(page.request)
  expect(before.ways).toEqual(['flashcard', 'type', 'choose', 'listen', 'gap'])
  await expect(p.group).toHaveAccessibleDescription('Practice mixes the ways that are on and that fit each card.')

  // Every way off, one Space each.
  await tabTo(page, p.way('Flashcard'))
  await page.keyboard.press('Space')
  for (const way of ways.slice(1)) {
    await press(page, 'Tab', p.way(way))
    await page.keyboard.press('Space')
  }
  for (const way of ways) await expect(p.way(way)).not.toBeChecked()
  // On past the reminder and its hour, both left alone, to "Save"; Space sends.
  await press(page, 'Tab', p.reminder)
  await press(page, 'Tab', p.hour)
  await press(page, 'Tab', p.save)
  await page.keyboard.press('Space')

  // Refused on the page: the message in an alert, the group described by it, its checkboxes
  // invalid, and focus on the first of them, in sight below the sticky header.
  const alert = p.section.getByRole('alert')
  await expect(alert).toHaveText(waysRequired)
  await expect(p.group).toHaveAccessibleDescription(`Practice mixes the ways that are on and that fit each card. ${waysRequired}`)
  const errorId = await alert.getAttribute('id')
  expect(errorId).toBeTruthy()
  expect((await p.group.getAttribute('aria-describedby'))?.split(/\s+/)).toContain(errorId)
  for (const way of ways) await expect(p.way(way)).toHaveAttribute('aria-invalid', 'true')
  await expectFocusUncovered(p.way('Flashcard'))
  await expect(toasts(page).getByText('Saved', { exact: true })).toHaveCount(0)

  // Nothing sent, nothing saved.
  expect(sent).toEqual([])
  expect(await settingsOf(page.request)).toEqual(before)

  // axe on the page in that state.
  await quiet(page)
  expect(await accessibilityViolations(page)).toEqual([])

  // One way back on by Space (the focused one): the message goes.
  await page.keyboard.press('Space')
  await expect(p.way('Flashcard')).toBeChecked()
  await expect(alert).toHaveCount(0)
  await expect(p.way('Flashcard')).toHaveAttribute('aria-invalid', 'false')
  await expect(p.group).toHaveAccessibleDescription('Practice mixes the ways that are on and that fit each card.')
  expect(sent).toEqual([])
})
