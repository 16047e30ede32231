import type { Page } from '@playwright/test'
import { appReady, colourModeButton, expect, languageSelect, mainHeading, mainNav, open, test } from './helpers/fixtures'

// A visitor picks a colour mode and a language; both are remembered and apply before the first paint.

/**
 * Loads the page with the app's JavaScript refused: only the inline script of index.html runs, on
 * the HTML the server rendered.
 */
async function loadWithoutBundle(page: Page, path = '/') {
  let refused = 0
  await page.route(/\/assets\/.*\.js$/, (route) => {
    refused++
    return route.abort()
  })
  // Not `page.goto`: it would wait for the app to start.
  expect((await page.mainFrame().goto(path))?.status()).toBe(200)
  // Proof that the app really did not start: its entry script was refused, and it never opened
  // its live stream (`data-live`).
  expect(refused).toBeGreaterThan(0)
  await expect(page.locator('html')).not.toHaveAttribute('data-live')
}

interface RootState {
  dark: boolean
  colorScheme: string
  lang: string
  /** The page background as painted (on <html>), as 0–255 sRGB with alpha. */
  background: [number, number, number, number]
}

async function html(page: Page): Promise<RootState> {
  return page.evaluate(() => {
    const root = document.documentElement
    // Any CSS colour (lab(), oklch()…) to sRGB: paint one pixel with it.
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })
    if (!context) throw new Error('no 2d canvas')
    context.fillStyle = getComputedStyle(root).backgroundColor
    context.fillRect(0, 0, 1, 1)
    const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data
    return {
      dark: root.classList.contains('dark'),
      colorScheme: root.style.colorScheme,
      lang: root.lang,
      background: [r, g, b, a],
    }
  })
}

/** Whether the painted background is dark; fails when nothing is painted (stylesheet missing). */
function isDark([r, g, b, a]: RootState['background']): boolean {
  if (a < 255) throw new Error(`The page background is not opaque: rgba(${r}, ${g}, ${b}, ${a})`)
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128
}

test.describe('colour mode', () => {
  test('dark mode chosen with the button survives a reload with no flash of light', async ({ page, diagnostics }) => {
    await open(page, '/')
    const button = colourModeButton(page)
    await expect(button).toHaveAccessibleName('Colour mode: System')
    expect((await html(page)).dark).toBe(false)

    // light → dark → system → light: from System, two clicks reach Dark.
    await button.click()
    await expect(button).toHaveAccessibleName('Colour mode: Light')
    expect((await html(page)).dark).toBe(false)
    await button.click()
    await expect(button).toHaveAccessibleName('Colour mode: Dark')
    expect(await html(page)).toMatchObject({ dark: true, colorScheme: 'dark' })
    expect(await page.evaluate(() => localStorage.getItem('lingua.theme'))).toBe('dark')

    // Before any of the app's code runs, the inline script has already applied the mode.
    diagnostics.allowConsoleError(/net::ERR_FAILED/)
    await loadWithoutBundle(page)
    const early = await html(page)
    expect(early).toMatchObject({ dark: true, colorScheme: 'dark' })
    expect(isDark(early.background), `background rgba(${early.background.join(', ')})`).toBe(true)

    // And the app agrees once it runs.
    await page.unrouteAll()
    await page.reload()
    await expect(colourModeButton(page)).toHaveAccessibleName('Colour mode: Dark')
    expect((await html(page)).dark).toBe(true)

    // The cycle goes on: dark → system (light here) → light.
    await colourModeButton(page).click()
    await expect(colourModeButton(page)).toHaveAccessibleName('Colour mode: System')
    expect((await html(page)).dark).toBe(false)
    expect(await page.evaluate(() => localStorage.getItem('lingua.theme'))).toBe('system')
  })

  test('the light page is light before the app starts', async ({ page, diagnostics }) => {
    diagnostics.allowConsoleError(/net::ERR_FAILED/)
    await loadWithoutBundle(page)
    const early = await html(page)
    expect(early).toMatchObject({ dark: false, colorScheme: 'light' })
    expect(isDark(early.background), `background rgba(${early.background.join(', ')})`).toBe(false)
  })

  test('the choice follows into another tab', async ({ page, context }) => {
    await open(page, '/')
    const other = await context.newPage()
    await open(other, '/about')
    expect((await html(other)).dark).toBe(false)

    await colourModeButton(page).click()
    await expect(colourModeButton(other)).toHaveAccessibleName('Colour mode: Light')
    await colourModeButton(page).click()
    await expect(colourModeButton(page)).toHaveAccessibleName('Colour mode: Dark')
    await expect(colourModeButton(other)).toHaveAccessibleName('Colour mode: Dark')
    expect((await html(other)).dark).toBe(true)
  })

  test.describe('with a dark operating system', () => {
    test.use({ colorScheme: 'dark' })

    test('and no stored choice, the page is dark from the first paint', async ({ page, diagnostics }) => {
      diagnostics.allowConsoleError(/net::ERR_FAILED/)
      await loadWithoutBundle(page)
      const early = await html(page)
      expect(early).toMatchObject({ dark: true, colorScheme: 'dark' })
      expect(isDark(early.background), `background rgba(${early.background.join(', ')})`).toBe(true)

      await page.unrouteAll()
      await page.reload()
      await expect(colourModeButton(page)).toHaveAccessibleName('Colour mode: System')
      expect((await html(page)).dark).toBe(true)
    })

    test('system mode follows the operating system while the page is open', async ({ page }) => {
      await open(page, '/')
      await expect(colourModeButton(page)).toHaveAccessibleName('Colour mode: System')
      expect((await html(page)).dark).toBe(true)
      await page.emulateMedia({ colorScheme: 'light' })
      await expect.poll(async () => (await html(page)).dark).toBe(false)
      await page.emulateMedia({ colorScheme: 'dark' })
      await expect.poll(async () => (await html(page)).dark).toBe(true)
    })

    test('a stored light choice wins over the system, with no flash of dark', async ({ page, diagnostics }) => {
      await page.addInitScript(() => localStorage.setItem('lingua.theme', 'light'))
      diagnostics.allowConsoleError(/net::ERR_FAILED/)
      await loadWithoutBundle(page)
      expect(await html(page)).toMatchObject({ dark: false, colorScheme: 'light' })

      await page.unrouteAll()
      await page.reload()
      await expect(colourModeButton(page)).toHaveAccessibleName('Colour mode: Light')
      expect((await html(page)).dark).toBe(false)
    })
  })
})

test.describe('interface language', () => {
  test('choosing Русский translates the app, sets <html lang> and survives a reload', async ({ page, diagnostics }) => {
    await open(page, '/')
    expect((await html(page)).lang).toBe('en')
    await languageSelect(page).selectOption({ label: 'Русский' })

    await expect(mainNav(page, 'Основное').getByRole('link', { name: 'Главная' })).toBeVisible()
    await expect(mainHeading(page)).toHaveText('Изучайте язык уровень за уровнем')
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru')
    expect(await page.evaluate(() => localStorage.getItem('lingua.lang'))).toBe('ru')

    await page.reload()
    await expect(mainNav(page, 'Основное').getByRole('link', { name: 'Главная' })).toBeVisible()
    await expect(languageSelect(page, 'Язык')).toHaveValue('ru')
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru')

    // <html lang> is right before the app's code runs, for screen readers and hyphenation.
    diagnostics.allowConsoleError(/net::ERR_FAILED/)
    await loadWithoutBundle(page, '/about')
    expect((await html(page)).lang).toBe('ru')

    // And back to English.
    await page.unrouteAll()
    await page.reload()
    await languageSelect(page, 'Язык').selectOption({ label: 'English' })
    await expect(mainNav(page).getByRole('link', { name: 'Home' })).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    expect(await page.evaluate(() => localStorage.getItem('lingua.lang'))).toBe('en')
  })

  test.describe('a browser set to Russian', () => {
    test.use({ locale: 'ru-RU' })

    test('gets Russian on the first visit', async ({ page }) => {
      await open(page, '/')
      await appReady(page)
      await expect(mainNav(page, 'Основное').getByRole('link', { name: 'Главная' })).toBeVisible()
      await expect(page.locator('html')).toHaveAttribute('lang', 'ru')
      await expect(languageSelect(page, 'Язык')).toHaveValue('ru')
      await expect(colourModeButton(page)).toHaveCount(0)
      await expect(page.getByRole('banner').getByRole('button', { name: /^Цветовая тема:/ })).toBeVisible()
      // Nothing stored: the browser decided.
      expect(await page.evaluate(() => localStorage.getItem('lingua.lang'))).toBeNull()
    })

    test('a stored English choice wins over the browser', async ({ page }) => {
      await page.addInitScript(() => localStorage.setItem('lingua.lang', 'en'))
      await open(page, '/')
      await expect(mainNav(page).getByRole('link', { name: 'Home' })).toBeVisible()
      await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    })
  })
})
