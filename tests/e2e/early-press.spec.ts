import {
  colourModeButton,
  expect,
  expectNotStarted,
  holdScripts,
  languageSelect,
  mainHeading,
  openBeforeStart,
  test,
} from './helpers/fixtures'

// A control the server's HTML shows is pressed before the app's scripts have arrived (a slow
// phone, a slow network): once the app has started, the press does what it says, once (the page's
// inline script keeps it: index.html, src/client/lib/early-input.ts). Links are plain links and
// need no app; the provider buttons are forms (provider-sign-in.spec.ts), the passkey button is in
// passkeys.spec.ts.

test('the colour mode pressed before the start changes once the app has started, by one step', async ({ page }) => {
  const release = await holdScripts(page)
  await openBeforeStart(page, '/')
  const button = colourModeButton(page)
  await expect(button).toHaveAttribute('data-theme-preference', 'system')
  await button.click()
  await expectNotStarted(page)
  await release()
  // system → light, and no further (pressed twice, it would be dark).
  await expect(button).toHaveAttribute('data-theme-preference', 'light')
  expect(await page.evaluate(() => localStorage.getItem('lingua.theme'))).toBe('light')
})

test('the language chosen before the start is the page’s once it has', async ({ page }) => {
  const release = await holdScripts(page)
  await openBeforeStart(page, '/about')
  await languageSelect(page).selectOption('ru')
  await expectNotStarted(page)
  await release()
  await expect(mainHeading(page)).toHaveText('О Lingua')
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru')
})

test('search pressed before the start opens the command palette', async ({ page }) => {
  const release = await holdScripts(page)
  await openBeforeStart(page, '/')
  await page.getByRole('banner').getByRole('button', { name: 'Search' }).click()
  await expectNotStarted(page)
  await release()
  await expect(page.getByRole('dialog').getByPlaceholder('Type a command or search...')).toBeFocused()
})

test('the search shortcut pressed before the start opens the command palette, once', async ({ page }) => {
  const release = await holdScripts(page)
  await openBeforeStart(page, '/about')
  await page.keyboard.press('Control+k')
  await expectNotStarted(page)
  await release()
  // Opened (pressed twice, it would toggle closed again at once).
  await expect(page.getByRole('dialog').getByPlaceholder('Type a command or search...')).toBeFocused()
})

test.describe('on a narrow screen', () => {
  test.use({ viewport: { width: 390, height: 800 } })

  test('the menu pressed before the start opens, once', async ({ page }) => {
    const release = await holdScripts(page)
    await openBeforeStart(page, '/login')
    const menu = page.getByRole('banner').getByRole('button', { name: 'Menu' })
    await menu.click()
    await expectNotStarted(page)
    await release()
    // Opened, and not closed again by a second press.
    await expect(menu).toHaveAttribute('aria-expanded', 'true')
    await expect(page.getByRole('banner').getByRole('navigation', { name: 'Main' }).last()).toBeVisible()
  })
})
