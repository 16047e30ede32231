import type { Page } from '@playwright/test'
import { expectHeadingFocused, focusStop, tabTo } from './helpers/a11y'
import { signedInAs } from './helpers/accounts'
import { expect, mainHeading, mainNav, open, test } from './helpers/fixtures'

// Where focus goes when the page changes under it (src/client/lib/route-focus.ts): after a
// client-side navigation, to the new page's main heading, which a screen reader reads out; never to
// the document. The keyboard journey (keyboard.spec.ts) and the admin journeys (admin.spec.ts) check
// the same after every navigation they make.

/** Holds the browser's requests to an API path until `release()`: data that arrives when the test says. */
async function hold(page: Page, pathname: string) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let asked!: () => void
  const requested = new Promise<void>((resolve) => (asked = resolve))
  await page.route(
    (url) => url.pathname === pathname,
    async (route) => {
      asked()
      await released
      await route.fallback()
    },
  )
  return { requested, release }
}

test('the first page load leaves focus alone; a click on a link puts it on the new page’s heading, without a ring', async ({
  page,
}) => {
  await open(page, '/')
  await expect(mainHeading(page)).toBeVisible()
  await expect(page.locator('body')).toBeFocused()

  await mainNav(page).getByRole('link', { name: 'About' }).click()
  await expect(page).toHaveURL('/about')
  await expectHeadingFocused(page, 'About Lingua', { keyboard: false })
  // Focused for a pointer user, it shows no focus outline (the browser's :focus-visible decides).
  expect((await focusStop(page))?.focusVisible).toBe(false)

  // Back and forward are navigations too.
  await page.goBack()
  await expectHeadingFocused(page, 'Learn a language level by level', { keyboard: false })
  await page.goForward()
  await expectHeadingFocused(page, 'About Lingua', { keyboard: false })
})

test('by keyboard, the heading shows focus and Tab goes on from it; the skip link still works', async ({ page }) => {
  await open(page, '/')
  await expect(mainHeading(page)).toBeVisible()
  await tabTo(page, page.getByRole('main').getByRole('link', { name: 'How levels work' }))
  await page.keyboard.press('Enter')
  await expectHeadingFocused(page, 'About Lingua')

  // Backwards from the heading: the header, then the skip link, which takes focus to the content.
  const skipLink = page.getByRole('link', { name: 'Skip to content' })
  await tabTo(page, mainNav(page).getByRole('link', { name: 'About' }), { backwards: true })
  await tabTo(page, skipLink, { backwards: true })
  await page.keyboard.press('Enter')
  await expect(page.getByRole('main')).toBeFocused()
  await expect(page).toHaveURL('/about#main')
  // A change of the hash alone is no new page: focus stays where the skip link put it.
  await expect(page.getByRole('main')).toBeFocused()
  await expect(mainHeading(page)).toHaveText('About Lingua')
})

test('a page opened from the command palette gets focus, not the button that opened the palette', async ({ page }) => {
  await open(page, '/')
  await expect(mainHeading(page)).toBeVisible()
  await page.getByRole('banner').getByRole('button', { name: 'Search' }).click()
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  await expect(palette.getByRole('combobox')).toBeFocused()
  await page.keyboard.type('About')
  await page.keyboard.press('Enter')
  await expect(palette).toHaveCount(0)
  await expectHeadingFocused(page, 'About Lingua')
})

test('a sign-in method replaced under the focused link hands focus to the new heading, not to the document', async ({
  page,
}) => {
  await open(page, '/login')
  await expect(mainHeading(page)).toHaveText('Sign in')
  await tabTo(page, page.getByRole('main').getByRole('link', { name: 'Sign in with a code' }))
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/login\?method=code$/)
  await expectHeadingFocused(page, 'Sign in with a code')
  await tabTo(page, page.getByRole('main').getByRole('link', { name: 'Sign in with a password' }))
  await page.keyboard.press('Enter')
  await expectHeadingFocused(page, 'Sign in')
})

test('the dashboard’s heading keeps focus while its data arrives', async ({ page, context, baseURL }) => {
  const name = 'Fay Focus'
  await signedInAs(context, baseURL ?? '', name)
  const profile = await hold(page, '/api/me/profile')
  await open(page, '/')
  await expect(mainHeading(page)).toBeVisible()

  await page.getByRole('main').getByRole('link', { name: 'Dashboard' }).click()
  await expectHeadingFocused(page, `Hello, ${name}!`, { keyboard: false })
  // The profile is still on its way: the page shows its loading state, the heading keeps focus.
  await profile.requested
  await expect(page.getByRole('main').getByRole('status', { name: 'Learning profile' })).toBeVisible()
  await expect(mainHeading(page)).toBeFocused()

  profile.release()
  await expect(page.getByRole('main').getByRole('combobox', { name: 'Language' })).toBeVisible()
  await expect(page.getByRole('main').getByRole('status', { name: 'Learning profile' })).toHaveCount(0)
  await expectHeadingFocused(page, `Hello, ${name}!`, { keyboard: false })
})
