import type { Page } from '@playwright/test'
import {
  accessibilityViolations,
  expect,
  failedResource,
  mainHeading,
  open,
  test,
  visitorPages,
} from './fixtures'

// axe (WCAG 2.0/2.1 A and AA, 2.2 AA) on every page a visitor can open, in both colour modes.

const modes = ['light', 'dark'] as const

/** Opens a page in the given mode and waits until it has settled (data loaded, heading shown). */
async function openSettled(page: Page, path: string, mode: (typeof modes)[number], status = 200) {
  await page.addInitScript((stored) => localStorage.setItem('lingua.theme', stored), mode)
  await open(page, path, status)
  await expect(mainHeading(page)).toBeVisible()
  if (mode === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/)
  if (path === '/fetching') await expect(page.getByText('Database time')).toBeVisible()
}

for (const mode of modes) {
  test.describe(`${mode} mode`, () => {
    for (const { path } of visitorPages) {
      test(`${path} has no WCAG violations`, async ({ page }) => {
        await openSettled(page, path, mode)
        expect(await accessibilityViolations(page)).toEqual([])
      })
    }

    test('the error screen has no WCAG violations', async ({ page, diagnostics }) => {
      diagnostics.allowConsoleError(failedResource(404))
      await openSettled(page, '/nope', mode, 404)
      expect(await accessibilityViolations(page)).toEqual([])
    })

    test('the form errors, the server answer and a toast have no WCAG violations', async ({ page }) => {
      await openSettled(page, '/fetching-post', mode)
      await page.getByRole('button', { name: 'Send' }).click()
      await expect(page.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true')
      expect(await accessibilityViolations(page), 'with field errors').toEqual([])

      await page.getByRole('textbox', { name: 'Name' }).fill('Ada')
      await page.getByRole('textbox', { name: 'Email' }).fill('ada@example.com')
      await page.getByRole('textbox', { name: 'Message' }).fill('Hello there, Lingua!')
      await page.getByRole('button', { name: 'Send' }).click()
      await expect(page.getByRole('region', { name: 'The server accepted' })).toBeVisible()
      const toast = page.getByRole('region', { name: 'Notifications (F8)' }).locator('li')
      await expect(toast).toHaveCount(1)
      // Past the toast's entry animation, whose opacity would skew the contrast figures.
      await expect(toast).not.toHaveAttribute('data-state', 'closed')
      await page.waitForTimeout(300)
      expect(await accessibilityViolations(page), 'with the answer and a toast').toEqual([])
    })

    test('the fetching error state has no WCAG violations', async ({ page, diagnostics }) => {
      diagnostics.allowConsoleError(failedResource(503))
      await openSettled(page, '/fetching', mode)
      await page.getByRole('checkbox', { name: 'Simulate a server failure' }).check()
      await expect(page.getByRole('main').getByRole('button', { name: 'Try again' })).toBeVisible({
        timeout: 10_000,
      })
      expect(await accessibilityViolations(page)).toEqual([])
    })

    test('the open command palette has no WCAG violations', async ({ page }) => {
      await openSettled(page, '/', mode)
      await page.keyboard.press('Control+k')
      await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible()
      await page.waitForTimeout(200)
      expect(await accessibilityViolations(page)).toEqual([])
    })

    test.describe('on a 360 px wide screen', () => {
      test.use({ viewport: { width: 360, height: 740 } })

      for (const path of ['/', '/fetching-post', '/about']) {
        test(`${path} has no WCAG violations, menu closed and open`, async ({ page }) => {
          await openSettled(page, path, mode)
          expect(await accessibilityViolations(page), 'menu closed').toEqual([])
          await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click()
          await expect(page.getByRole('banner').getByRole('combobox', { name: 'Language' })).toBeVisible()
          expect(await accessibilityViolations(page), 'menu open').toEqual([])
          // Nothing wider than the screen (WCAG 1.4.10 reflow).
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
          expect(overflow).toBeLessThanOrEqual(0)
        })
      }
    })
  })
}
