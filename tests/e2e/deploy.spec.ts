import { expect, test } from './helpers/fixtures'

/** A code chunk that is gone (a new deployment replaced it) fails to load: the app reloads once. */
const aboutChunk = /\/assets\/about-[\w-]+\.js$/

test.describe('after a new deployment', () => {
  test('a route chunk that fails to load reloads the page once, then the page works', async ({
    page,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(/Failed to (load resource|fetch dynamically imported module)/)
    await page.goto('/')
    let requests = 0
    await page.route(aboutChunk, async (route) => {
      requests += 1
      // Only the first load fails, as when the old build's file is gone and the new one is served.
      if (requests === 1) await route.abort('failed')
      else await route.continue()
    })
    let documentLoads = 0
    page.on('load', () => (documentLoads += 1))

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click()

    await expect(page.getByRole('heading', { level: 1, name: 'About Lingua' })).toBeVisible()
    await expect(page).toHaveURL(/\/about$/)
    // The reloaded page is rendered by the server: its heading shows before the app has taken it
    // over and loaded the chunk again.
    await expect(page.locator('html[data-app="started"]')).toBeAttached()
    expect(requests).toBe(2)
    expect(documentLoads).toBe(1)
  })

  test('a chunk that keeps failing reloads only once, then shows the error screen', async ({
    page,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(/Failed to (load resource|fetch dynamically imported module)/)
    await page.goto('/')
    await page.route(aboutChunk, (route) => route.abort('failed'))
    let documentLoads = 0
    page.on('load', () => (documentLoads += 1))

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click()

    await expect(page.getByRole('heading', { name: 'Something went wrong.' })).toBeVisible()
    expect(documentLoads).toBe(1)
  })

  test('a lazy part of the app (the command palette) that fails to load reloads the page once', async ({
    page,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(/Failed to (load resource|fetch dynamically imported module)/)
    diagnostics.allowConsoleError(/The above error occurred|An error occurred in the <Lazy> component/)
    await page.goto('/about')
    let requests = 0
    await page.route(/\/assets\/command-palette-[\w-]+\.js$/, async (route) => {
      requests += 1
      if (requests === 1) await route.abort('failed')
      else await route.continue()
    })
    const reloaded = page.waitForEvent('load')
    await page.keyboard.press('Control+k')
    await reloaded
    await expect(page).toHaveURL(/\/about$/)
    await expect(page.getByRole('heading', { level: 1, name: 'About Lingua' })).toBeVisible()
    // The page shows before the app has started again on it (after its first paint).
    await expect(page.locator('html[data-app="started"]')).toBeAttached()

    await page.keyboard.press('Control+k')
    await expect(page.getByPlaceholder('Type a command or search...')).toBeVisible()
    expect(requests).toBe(2)
  })
})
