import { signedInAs } from './helpers/accounts'
import { accessibilityViolations, expect, mainHeading, mainNav, test } from './helpers/fixtures'

// What a visitor and a learner see of the levels: the home page list and the dashboard.

test.describe('the home page', () => {
  test('lists the levels from the API in their order', async ({ page }) => {
    await page.goto('/')
    const list = page.getByRole('region', { name: 'The levels' }).getByRole('listitem')
    await expect(list.first()).toContainText('A1')
    const texts = await list.allTextContents()
    const seeded = ['A1', 'A2', 'B1', 'B2', 'C1', 'C2'].map((code) => texts.findIndex((text) => text.startsWith(code)))
    expect(seeded.every((index) => index >= 0)).toBe(true)
    expect([...seeded].sort((a, b) => a - b)).toEqual(seeded)
    await expect(page.getByText('Understands and uses familiar everyday expressions', { exact: false })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Get started' })).toHaveAttribute('href', '/register')
  })

  // The server being down (503) is tests/e2e/outage.spec.ts; here the network fails.
  test('shows an error with a retry when the levels cannot be read', async ({ page, diagnostics }) => {
    diagnostics.allowConsoleError(/net::ERR_INTERNET_DISCONNECTED/)
    // React reports the error its boundary caught.
    diagnostics.allowConsoleError(/Network request failed/)
    let failing = true
    await page.route('**/api/language-levels?*', async (route) => {
      if (failing) await route.abort('internetdisconnected')
      else await route.continue()
    })
    // The home page the server renders holds its levels: the browser reads them when it goes there
    // from another page.
    await page.goto('/about')
    await mainNav(page).getByRole('link', { name: 'Home' }).click()
    const region = page.getByRole('region', { name: 'The levels' })
    // Three attempts with backoff, then the error.
    await expect(region.getByRole('alert')).toContainText(
      'The levels could not be loaded. Check your connection and try again.',
      { timeout: 15_000 },
    )
    expect(await accessibilityViolations(page)).toEqual([])
    failing = false
    await region.getByRole('button', { name: 'Try again' }).click()
    await expect(region.getByRole('listitem').first()).toContainText('A1')
  })

  test('offers the dashboard instead of registration when signed in', async ({ page, context, baseURL }) => {
    await signedInAs(context, baseURL ?? '', 'Home Visitor')
    await page.goto('/')
    await expect(page.getByRole('main').getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard')
  })
})

test.describe('the dashboard', () => {
  test('a learner saves a profile and sees the progress and their level', async ({ page, context, baseURL }) => {
    await signedInAs(context, baseURL ?? '', 'Keen Learner')
    await page.goto('/dashboard')
    await expect(mainHeading(page)).toHaveText('Hello, Keen Learner!')
    const profile = page.getByRole('region', { name: 'Learning profile' })
    await expect(profile.getByLabel('Language')).toBeVisible()
    await expect(page.getByText('Choose your current level to see your progress.')).toBeVisible()
    await expect(page.getByText('Email confirmed')).toBeVisible()
    await expect(page.getByText('Two-step verification off')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Manage your account' })).toHaveAttribute('href', '/account')
    expect(await accessibilityViolations(page)).toEqual([])

    await profile.getByLabel('Language').selectOption({ label: 'Spanish' })
    await profile.getByLabel('Current level').selectOption({ label: 'B1 — Intermediate' })
    await profile.getByLabel('Target level').selectOption({ label: 'A2 — Elementary' })
    await profile.getByRole('button', { name: 'Save profile' }).click()
    await expect(profile.getByText('The target level cannot be below the current level')).toBeVisible()

    await profile.getByLabel('Target level').selectOption({ label: 'C1 — Advanced' })
    await profile.getByRole('button', { name: 'Save profile' }).click()
    await expect(page.getByText('Profile saved', { exact: true })).toBeVisible()
    const progress = page.getByRole('region', { name: 'Progress' })
    await expect(progress.getByText(/^Level \d+ of \d+ · \d+ more to your target$/)).toBeVisible()
    await expect(progress.locator('[aria-current="step"]')).toContainText('B1')
    await expect(page.getByRole('region', { name: 'Your level' })).toContainText('Intermediate')

    // Saved on the server: a new page shows the same profile.
    await page.reload()
    await expect(page.getByRole('region', { name: 'Learning profile' }).getByLabel('Current level')).toHaveValue(
      await profile.getByLabel('Current level').inputValue(),
    )
    await expect(page.getByRole('region', { name: 'Learning profile' }).getByLabel('Language')).toHaveValue('es')
    await page.emulateMedia({ colorScheme: 'dark' })
    // Checked once the colours have changed (the check waits for the transitions to end).
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    expect(await accessibilityViolations(page)).toEqual([])
  })
})
