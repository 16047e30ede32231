import type { Page } from '@playwright/test'
import { colourModeButton, expect, mainHeading, open, test } from './helpers/fixtures'

// The parts of the layout every page shares: notifications and the command palette.

const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications (F8)' })
const toastItems = (page: Page) => notifications(page).locator('li')

/**
 * Fills the demo form validly and sends it once, with Enter in the Name field (the mouse stays
 * where it is); resolves when the answer has arrived.
 */
async function sendMessage(page: Page, n: number) {
  await page.getByLabel('Name').fill(`Ada ${n}`)
  await page.getByLabel('Email').fill('ada@example.com')
  await page.getByLabel('Message').fill('Hello there, Lingua!')
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/demo/messages'))
  await page.getByLabel('Name').press('Enter')
  expect((await answered).status()).toBe(200)
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled()
}

test.describe('toasts', () => {
  test('six successes show at most five toasts; each can be closed', async ({ page }) => {
    await open(page, '/fetching-post')
    // Nothing of the notifications region before the first toast (it loads on demand).
    await expect(notifications(page)).toHaveCount(0)

    await sendMessage(page, 1)
    await expect(toastItems(page)).toHaveCount(1)
    // The pointer resting on the toasts pauses their 5 s timers, so a slow machine cannot let the
    // first ones time out on their own and make the count below prove nothing.
    await toastItems(page).first().hover()
    for (let n = 2; n <= 6; n++) {
      await sendMessage(page, n)
      await expect(toastItems(page)).toHaveCount(Math.min(n, 5))
    }
    await expect(toastItems(page)).toHaveCount(5)
    for (const item of await toastItems(page).all()) {
      await expect(item).toBeVisible()
      await expect(item).toContainText('Message sent')
    }

    // F8 moves focus to the list.
    await page.keyboard.press('F8')
    await expect(notifications(page).locator('ol')).toBeFocused()

    await toastItems(page).first().getByRole('button', { name: 'Close' }).click()
    await expect(toastItems(page)).toHaveCount(4)
    await toastItems(page).last().getByRole('button', { name: 'Close' }).click()
    await expect(toastItems(page)).toHaveCount(3)
  })

  test('a toast closes by itself after 5 seconds', async ({ page }) => {
    await open(page, '/fetching-post')
    // Measured in the page: when the toast appeared and when it left the DOM.
    await page.evaluate(() => {
      const times: { shown?: number; gone?: number } = {}
      Object.assign(window, { __toastTimes: times })
      new MutationObserver(() => {
        const present = document.querySelector('[role="region"] li') !== null
        if (present && times.shown === undefined) times.shown = performance.now()
        if (!present && times.shown !== undefined && times.gone === undefined) times.gone = performance.now()
      }).observe(document.body, { childList: true, subtree: true })
    })
    // Keep the pointer away from the region: hovering it pauses the timer.
    await sendMessage(page, 1)
    await page.mouse.move(0, 0)
    await expect(toastItems(page)).toHaveCount(1)
    await expect(toastItems(page)).toHaveCount(0, { timeout: 10_000 })
    const { shown, gone } = await page.evaluate(
      () => (window as unknown as { __toastTimes: { shown: number; gone: number } }).__toastTimes,
    )
    const lifetime = gone - shown
    // 5000 ms open, then a 150 ms exit animation and removal 200 ms after closing; slack for a busy CI.
    expect(lifetime).toBeGreaterThanOrEqual(5000)
    expect(lifetime).toBeLessThan(8000)
  })

  test('F8 focuses the notifications region on a page that has shown no toast yet', async ({ page }) => {
    await open(page, '/')
    await expect(mainHeading(page)).toBeVisible()
    await expect(notifications(page)).toHaveCount(0)
    await page.keyboard.press('F8')
    await expect(notifications(page).locator('ol')).toBeFocused()
    // A second F8 still works once the region is there.
    await page.getByRole('banner').getByRole('link', { name: 'About' }).focus()
    await page.keyboard.press('F8')
    await expect(notifications(page).locator('ol')).toBeFocused()
  })
})

test.describe('command palette', () => {
  const dialog = (page: Page) => page.getByRole('dialog', { name: 'Command palette' })
  const input = (page: Page) => page.getByPlaceholder('Type a command or search...')

  test('Ctrl+K opens it; typing a page name and Enter goes there', async ({ page }) => {
    await open(page, '/')
    await expect(mainHeading(page)).toBeVisible()
    await page.keyboard.press('Control+k')
    await expect(dialog(page)).toBeVisible()
    await expect(input(page)).toBeFocused()
    await page.keyboard.type('About')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL('/about')
    await expect(mainHeading(page)).toHaveText('About Lingua')
    await expect(dialog(page)).toHaveCount(0)
  })

  test('Escape closes it', async ({ page }) => {
    await open(page, '/about')
    await page.getByRole('banner').getByRole('button', { name: 'Search' }).click()
    await expect(dialog(page)).toBeVisible()
    await expect(input(page)).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(dialog(page)).toHaveCount(0)
    await expect(page).toHaveURL('/about')
    // Ctrl+K toggles it too.
    await page.keyboard.press('Control+k')
    await expect(dialog(page)).toBeVisible()
    await page.keyboard.press('Control+k')
    await expect(dialog(page)).toHaveCount(0)
  })

  test('closing it gives focus back to where it was', async ({ page }) => {
    await open(page, '/about')
    const search = page.getByRole('banner').getByRole('button', { name: 'Search' })
    await search.click()
    await expect(dialog(page)).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(dialog(page)).toHaveCount(0)
    await expect(search).toBeFocused()
  })

  test('Meta+K opens it too, and it offers preferences', async ({ page }) => {
    await open(page, '/')
    await expect(mainHeading(page)).toBeVisible()
    await page.keyboard.press('Meta+k')
    await expect(dialog(page)).toBeVisible()
    await input(page).fill('dark')
    await expect(dialog(page).getByRole('option', { name: 'Colour mode: Dark' })).toBeVisible()
    await page.keyboard.press('Enter')
    await expect(dialog(page)).toHaveCount(0)
    await expect(colourModeButton(page)).toHaveAccessibleName('Colour mode: Dark')
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  })

  test('a search that matches nothing says so', async ({ page }) => {
    await open(page, '/')
    await expect(mainHeading(page)).toBeVisible()
    await page.keyboard.press('Control+k')
    await input(page).fill('zzzz-nothing')
    await expect(dialog(page).getByText('No results found.')).toBeVisible()
    await expect(dialog(page).getByRole('option')).toHaveCount(0)
  })
})

test.describe('tooltips', () => {
  test('keyboard focus shows the hint at once, tied to the button; Escape hides it', async ({ page }) => {
    await open(page, '/about')
    const button = colourModeButton(page)
    await button.focus()
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Tab')
    const tooltip = page.getByRole('tooltip')
    await expect(tooltip).toHaveText(/^Colour mode: /)
    await expect(button).toHaveAttribute('aria-describedby', (await tooltip.getAttribute('id')) ?? 'missing')
    await page.keyboard.press('Escape')
    await expect(tooltip).toHaveCount(0)
  })

  test('hovering shows the hint after a delay, and leaving hides it', async ({ page }) => {
    await open(page, '/about')
    const button = page.getByRole('banner').getByRole('button', { name: 'Search' })
    await button.hover()
    await expect(page.getByRole('tooltip')).toHaveText('Search (Ctrl+K)')
    await mainHeading(page).hover()
    await expect(page.getByRole('tooltip')).toHaveCount(0)
  })
})
