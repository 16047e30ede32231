import type { Page } from '@playwright/test'
import { desktopUserAgent } from '../../playwright.config'
import { signedInAs } from './helpers/accounts'
import {
  type Level,
  adminEmail,
  adminStatePath,
  levelsApi,
  reorderCodes,
  startOwnServer,
  uniqueCode,
} from './helpers/admin'
import { expectHeadingFocused } from './helpers/a11y'
import { accessibilityViolations, expect, expectErrorScreen, failedResource, mainHeading, test, toasts } from './helpers/fixtures'

// The admin area: the table of levels, the level form (create, edit, a stale edit), deletion with
// its confirmation, reordering by keyboard and by drag, the audit log (on "Recent changes") and the
// command palette.
// Journeys create their own levels (unique codes) and delete them: the seeded A1–C2 stay as they
// are for the specs that run beside these on the same server.

const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search levels' })
const levelsTable = (page: Page) => page.getByRole('table', { name: 'Language levels' })
const rowOf = (page: Page, code: string) => levelsTable(page).getByRole('row').filter({ hasText: code })

async function searchFor(page: Page, text: string) {
  await searchBox(page).fill(text)
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text)}(&|$)`))
}

test.describe('an administrator', () => {
  test.use({ storageState: adminStatePath })
  // In order, one at a time: a reorder names every level, so a level made meanwhile would refuse it.
  test.describe.configure({ mode: 'default' })

  const made: number[] = []
  test.afterAll(async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, storageState: adminStatePath })
    const api = levelsApi(context.request, baseURL ?? '')
    for (const id of made) await api.remove(id)
    await context.close()
  })

  test('creates a level, edits it, finds it in the list and in the audit log', async ({ page, diagnostics }) => {
    diagnostics.allowConsoleError(failedResource(409))
    const code = uniqueCode('N')
    await page.goto('/admin/language-levels')
    await expect(mainHeading(page)).toHaveText('Language levels')
    await page.getByRole('link', { name: 'New level' }).click()
    await expect(page).toHaveURL(/\/admin\/language-levels\/create$/)
    await expectHeadingFocused(page, 'New level', { keyboard: false })

    // The shared schema checks the fields first, in the interface language.
    await page.getByRole('button', { name: 'Create level' }).click()
    await expect(page.getByRole('textbox', { name: 'Code' })).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true')
    await page.getByRole('textbox', { name: 'Code' }).fill('B 2')
    await page.getByRole('button', { name: 'Create level' }).click()
    await expect(page.getByText('Use letters, digits and + . _ - only')).toBeVisible()

    await page.getByRole('textbox', { name: 'Code' }).fill(code)
    await page.getByRole('textbox', { name: 'Name' }).fill('Test level')
    await page.getByRole('textbox', { name: 'Description' }).fill('Made by the admin journey.')
    // After the write, the new level's page reads it again: the heading has focus before and after.
    const readAgain = page.waitForResponse(
      (response) => /\/api\/language-levels\/\d+$/.test(new URL(response.url()).pathname) && response.request().method() === 'GET',
    )
    await page.getByRole('button', { name: 'Create level' }).click()
    await expect(page).toHaveURL(/\/admin\/language-levels\/\d+$/)
    const id = Number(new URL(page.url()).pathname.split('/').pop())
    made.push(id)
    await expect(toasts(page)).toContainText(`Level ${code} created`)
    await expectHeadingFocused(page, `${code} Test level`, { keyboard: false })
    expect((await readAgain).status()).toBe(200)
    await expectHeadingFocused(page, `${code} Test level`, { keyboard: false })

    // A code another level has (in any case) is refused on the field.
    await page.goto('/create')
    await page.getByRole('textbox', { name: 'Code' }).fill(code.toLowerCase())
    await page.getByRole('textbox', { name: 'Name' }).fill('Duplicate')
    await page.getByRole('button', { name: 'Create level' }).click()
    const codeField = page.getByRole('textbox', { name: 'Code' })
    await expect(codeField).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByText('Another level already uses this code.')).toBeVisible()
    await expect(page).toHaveURL(/\/create$/)

    // Edit: "Save changes" stays off until something changed.
    await page.goto(`/admin/language-levels/${id}`)
    const save = page.getByRole('button', { name: 'Save changes' })
    await expect(save).toBeDisabled()
    await page.getByRole('textbox', { name: 'Name' }).fill('Renamed level')
    await save.click()
    await expect(toasts(page)).toContainText('Changes saved')
    await expect(mainHeading(page)).toHaveText(`${code} Renamed level`)
    await page.reload()
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Renamed level')

    // The list finds it; a click anywhere on its row opens it.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Language levels' }).click()
    await searchFor(page, code)
    await expect(levelsTable(page).getByRole('row')).toHaveCount(2)
    await rowOf(page, code).click()
    await expect(page).toHaveURL(new RegExp(`/admin/language-levels/${id}$`))
    await expectHeadingFocused(page, `${code} Renamed level`, { keyboard: false })

    // The audit log says who did what: "Recent changes" in the admin area's navigation.
    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Recent changes' }).click()
    await expect(page).toHaveURL(/\/admin\/recent-changes$/)
    const audit = page.getByRole('table', { name: 'Recent changes' })
    const created = audit.getByRole('row').filter({ hasText: 'Created level' }).filter({ hasText: `Level ${code}` })
    await expect(created).toContainText(adminEmail)
    await expect(
      audit.getByRole('row').filter({ hasText: 'Changed level' }).filter({ hasText: `Level ${code}` }),
    ).toContainText('Changed: name')
  })

  test('a stale edit says someone else changed the level, and Reload loads their version', async ({
    page,
    context,
    baseURL,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(failedResource(409))
    const level = await levelsApi(context.request, baseURL ?? '').create(uniqueCode('S'), 'Original name')
    made.push(level.id)
    const other = await context.newPage()
    await page.goto(`/admin/language-levels/${level.id}`)
    await other.goto(`/admin/language-levels/${level.id}`)
    await page.getByRole('textbox', { name: 'Name' }).fill('Mine, typed second')

    await other.getByRole('textbox', { name: 'Name' }).fill('Theirs, saved first')
    await other.getByRole('button', { name: 'Save changes' }).click()
    await expect(toasts(other)).toContainText('Changes saved')

    await page.bringToFront()
    await page.getByRole('button', { name: 'Save changes' }).click()
    const conflict = page.getByRole('alert').filter({ hasText: 'Someone else changed this level' })
    await expect(conflict).toBeVisible()
    expect(await accessibilityViolations(page)).toEqual([])
    await conflict.getByRole('button', { name: 'Reload' }).click()
    await expect(conflict).toBeHidden()
    await expect(page.getByRole('alert').filter({ hasText: 'Someone else changed this' })).toHaveCount(0)
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Theirs, saved first')

    // Now from the current version, the edit goes through.
    await page.getByRole('textbox', { name: 'Description' }).fill('Edited after the reload.')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(toasts(page)).toContainText('Changes saved')
    const saved = await levelsApi(context.request, baseURL ?? '').get(level.id)
    expect(saved).toMatchObject({ name: 'Theirs, saved first', description: 'Edited after the reload.', version: 3 })
  })

  test('reorders levels by keyboard and by drag, then saves the order', async ({ page, context, baseURL }) => {
    const api = levelsApi(context.request, baseURL ?? '')
    const [first, second, third] = [
      await api.create(uniqueCode('R')),
      await api.create(uniqueCode('R')),
      await api.create(uniqueCode('R')),
    ] as [Level, Level, Level]
    made.push(first.id, second.id, third.id)
    const seeded = (await api.ordered()).filter((level) => /^[ABC][12]$/.test(level.code)).map((level) => level.code)

    await page.goto('/admin/language-levels')
    await page.getByRole('button', { name: 'Reorder' }).click()
    const panel = page.getByRole('region', { name: 'Reorder levels' })
    await expect(panel.getByRole('heading', { name: 'Reorder levels' })).toBeFocused()
    await expect(panel.getByRole('listitem').last()).toContainText(third.code)
    expect(await accessibilityViolations(page)).toEqual([])
    await expect(panel.getByRole('button', { name: 'Save order' })).toBeDisabled()

    // Keyboard: pick the third up, move it up one place, drop it.
    const live = page.locator('[id^="DndLiveRegion"]')
    const thirdHandle = panel.getByRole('button', { name: `Move ${third.code} ` })
    await thirdHandle.focus()
    await page.keyboard.press('Space')
    await expect(live).toContainText(`Picked up level ${third.code}`)
    await page.keyboard.press('ArrowUp')
    await expect(live).toContainText(`Level ${third.code} is now at position`)
    await page.keyboard.press('Space')
    await expect(live).toContainText(`Level ${third.code} dropped at position`)
    expect((await reorderCodes(page)).slice(-3)).toEqual([first.code, third.code, second.code])

    // Pointer: drag the first onto the last place.
    const handle = panel.getByRole('button', { name: `Move ${first.code} ` })
    await handle.scrollIntoViewIfNeeded()
    const from = await handle.boundingBox()
    const to = await panel.getByRole('listitem').last().boundingBox()
    if (!from || !to) throw new Error('the reorder list is not on screen')
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
    await page.mouse.down()
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 10, { steps: 4 })
    await page.mouse.move(from.x + from.width / 2, to.y + to.height / 2 + 4, { steps: 12 })
    await page.mouse.up()
    await expect.poll(async () => (await reorderCodes(page)).slice(-3)).toEqual([third.code, second.code, first.code])
    // dnd-kit's pointer sensor swallows the clicks of the 50 ms after a drop (a timer it sets then),
    // and a busy browser handles a click before a due timer: wait in the page until that timer ran.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 60)))

    // The answer to the save, checked first: a refusal names its reason in the failure.
    const [saved] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/language-levels/order')),
      panel.getByRole('button', { name: 'Save order' }).click(),
    ])
    expect(saved.status(), await saved.text()).toBe(200)
    await expect(toasts(page)).toContainText('Order saved')
    await expect(page.getByRole('button', { name: 'Reorder' })).toBeFocused()
    const after = await api.ordered()
    expect(after.slice(-3).map((level) => level.code)).toEqual([third.code, second.code, first.code])
    expect(after.filter((level) => /^[ABC][12]$/.test(level.code)).map((level) => level.code)).toEqual(seeded)
    // The table shows the new order.
    await searchFor(page, third.code)
    await expect(rowOf(page, third.code).getByRole('cell').first()).toHaveText(String(after.length - 2))
  })

  test('deleting asks first and says how many learners use the level', async ({ page, context, browser, baseURL, diagnostics }) => {
    // The deletion's live event may reach the level's page before it has left: its refetch of the
    // level just deleted is a 404 (the page then leaves as planned).
    diagnostics.allowConsoleError(failedResource(404))
    const origin = baseURL ?? ''
    const api = levelsApi(context.request, origin)
    const used = await api.create(uniqueCode('D'), 'Level in use')
    const unused = await api.create(uniqueCode('D'), 'Level nobody uses')
    made.push(used.id, unused.id)

    const learnerContext = await browser.newContext({ baseURL, userAgent: desktopUserAgent })
    await signedInAs(learnerContext, origin, 'Lea Learner')
    const profile = await learnerContext.request.put('/api/me/profile', {
      headers: { Origin: origin },
      data: { language: 'fr', currentLevelId: used.id, targetLevelId: used.id },
    })
    expect(profile.status(), await profile.text()).toBe(200)

    await page.goto('/admin/language-levels')
    await searchFor(page, used.code)
    await rowOf(page, used.code).getByRole('button', { name: `Delete ${used.code}` }).click()
    const dialog = page.getByRole('alertdialog', { name: `Delete level ${used.code}?` })
    await expect(dialog).toContainText('Learners who have this level in their profile: 1.')
    expect(await accessibilityViolations(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    await expect(rowOf(page, used.code)).toBeVisible()

    await rowOf(page, used.code).getByRole('button', { name: 'Delete' }).click()
    await dialog.getByRole('button', { name: 'Delete level' }).click()
    await expect(toasts(page)).toContainText(`Level ${used.code} deleted`)
    await expect(dialog).toBeHidden()
    await expect(page.getByText('No matching data')).toBeVisible()
    // The row and the button that opened the dialog are gone: the heading has focus.
    await expectHeadingFocused(page, 'Language levels', { keyboard: false })
    // The learner's profile lost it.
    const cleared = await learnerContext.request.get('/api/me/profile')
    expect(await cleared.json()).toMatchObject({ currentLevelId: null, targetLevelId: null })
    await learnerContext.close()

    // From the level's page: the same dialog, then back to the list.
    await page.goto(`/admin/language-levels/${unused.id}`)
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    const second = page.getByRole('alertdialog', { name: `Delete level ${unused.code}?` })
    await expect(second).toContainText('No learner has this level in their profile.')
    await second.getByRole('button', { name: 'Delete level' }).click()
    await expect(page).toHaveURL(/\/admin\/language-levels$/)
    await expect(toasts(page)).toContainText(`Level ${unused.code} deleted`)
    await expectHeadingFocused(page, 'Language levels', { keyboard: false })
    expect(await api.get(unused.id)).toBeUndefined()
  })

  test('a level that does not exist is a 404 "Language level not found"', async ({ page, context, baseURL, diagnostics }) => {
    diagnostics.allowConsoleError(failedResource(404))
    diagnostics.allowConsoleError(/Language level not found/)
    const gone = await levelsApi(context.request, baseURL ?? '').create(uniqueCode('G'))
    await levelsApi(context.request, baseURL ?? '').remove(gone.id)
    await page.goto(`/admin/language-levels/${gone.id}`)
    await expectErrorScreen(page, 404, 'Language level not found')
  })

  test('sorts, pages and searches through the URL', async ({ page, context, baseURL }) => {
    const api = levelsApi(context.request, baseURL ?? '')
    // Enough levels for two pages of ten.
    for (let i = 0; i < 5; i++) made.push((await api.create(uniqueCode('P'))).id)

    await page.goto('/admin/language-levels')
    const table = levelsTable(page)
    const position = table.getByRole('columnheader', { name: 'Position' })
    await expect(position).toHaveAttribute('aria-sort', 'ascending')
    await expect(table.getByRole('row').nth(1)).toContainText('A1')

    const code = table.getByRole('columnheader', { name: 'Code' })
    await code.getByRole('button').click()
    await expect(page).toHaveURL(/[?&]sort=code(&|$)/)
    await expect(code).toHaveAttribute('aria-sort', 'ascending')
    // A new sort, page or search is the same page: focus stays where it was (no jump to the heading).
    await expect(code.getByRole('button')).toBeFocused()
    await expect(position).toHaveAttribute('aria-sort', 'none')
    await code.getByRole('button').click()
    await expect(page).toHaveURL(/[?&]sort=-code(&|$)/)
    await expect(code).toHaveAttribute('aria-sort', 'descending')

    await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('10')
    await expect(page).toHaveURL(/[?&]pageSize=10(&|$)/)
    await expect(table.getByRole('row')).toHaveCount(11)
    await page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('button', { name: 'Next page' }).click()
    await expect(page).toHaveURL(/[?&]page=2(&|$)/)
    await expect(page.getByText(/^11–\d+ of \d+$/)).toBeVisible()
    // The URL is the state: a reload shows the same page, sort and size.
    await page.reload()
    await expect(page.getByText(/^11–\d+ of \d+$/)).toBeVisible()
    await expect(code).toHaveAttribute('aria-sort', 'descending')

    // A search goes back to the first page; one that finds nothing says so.
    await searchFor(page, 'no-such-level-zz')
    await expect(searchBox(page)).toBeFocused()
    await expect(page).not.toHaveURL(/[?&]page=/)
    await expect(page.getByText('No matching data')).toBeVisible()
    expect(await accessibilityViolations(page)).toEqual([])
    await page.goBack()
    await expect(searchBox(page)).toHaveValue('')
  })

  test('the command palette finds levels and opens them', async ({ page, context, baseURL }) => {
    const level = await levelsApi(context.request, baseURL ?? '').create(uniqueCode('K'), 'Palette level')
    made.push(level.id)
    await page.goto('/')
    await expect(mainHeading(page)).toBeVisible()
    await page.keyboard.press('Control+k')
    const palette = page.getByRole('dialog', { name: 'Command palette' })
    await palette.getByRole('combobox').fill(level.code)
    const option = palette.getByRole('option', { name: `${level.code} Palette level` })
    await expect(option).toBeVisible()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`/admin/language-levels/${level.id}$`))
    // Not back to where focus was before the palette: to the heading of the page it opened.
    await expectHeadingFocused(page, `${level.code} Palette level`)
  })
})

test.describe('a signed-in learner', () => {
  test('sees the create form with a notice and cannot send it; the server refuses anyway', async ({
    page,
    context,
    baseURL,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(/Administrators only/)
    await signedInAs(context, baseURL ?? '', 'Curious Learner')
    await page.goto('/admin/language-levels/create')
    await expect(mainHeading(page)).toHaveText('New level')
    await expect(page.getByText('Administrator rights are required to create levels')).toBeVisible()
    for (const name of ['Code', 'Name', 'Description']) {
      await expect(page.getByRole('textbox', { name })).toBeDisabled()
    }
    await expect(page.getByRole('button', { name: 'Create level' })).toBeDisabled()
    expect(await accessibilityViolations(page)).toEqual([])

    const refused = await context.request.post('/api/language-levels', {
      headers: { Origin: baseURL ?? '' },
      data: { code: uniqueCode('X'), name: 'Not allowed' },
    })
    expect(refused.status()).toBe(403)

    // The palette offers no levels to a learner.
    await page.keyboard.press('Control+k')
    const palette = page.getByRole('dialog', { name: 'Command palette' })
    await expect(palette.getByRole('group', { name: 'Pages', exact: true })).toBeVisible()
    await expect(palette.getByRole('group', { name: 'Levels' })).toHaveCount(0)
    await page.keyboard.press('Escape')

    // The quick-create page is for admins only.
    await page.goto('/create')
    await expectErrorScreen(page, 403, 'Administrators only')
  })
})

for (const mode of ['light', 'dark'] as const) {
  test.describe(`the admin pages in ${mode} mode`, () => {
    test.use({ storageState: adminStatePath })

    test.beforeEach(async ({ page }) => {
      await page.addInitScript((stored) => localStorage.setItem('lingua.theme', stored), mode)
    })

    test('have no WCAG violations', async ({ page, context, baseURL }) => {
      const [a1] = (await levelsApi(context.request, baseURL ?? '').ordered()).filter((level) => level.code === 'A1')
      if (!a1) throw new Error('the seeded A1 is missing')
      await page.goto('/admin/language-levels')
      await expect(levelsTable(page).getByRole('row').nth(1)).toContainText('A1')
      expect(await accessibilityViolations(page), 'the list').toEqual([])

      await page.goto(`/admin/language-levels/${a1.id}`)
      await expect(mainHeading(page)).toContainText('A1')
      expect(await accessibilityViolations(page), 'a level').toEqual([])
      await page.getByRole('textbox', { name: 'Code' }).fill('')
      await page.getByRole('textbox', { name: 'Name' }).fill('x')
      await page.getByRole('button', { name: 'Save changes' }).click()
      await expect(page.getByRole('textbox', { name: 'Code' })).toHaveAttribute('aria-invalid', 'true')
      expect(await accessibilityViolations(page), 'a level with field errors').toEqual([])

      await page.goto('/admin/language-levels/create')
      await expect(mainHeading(page)).toHaveText('New level')
      expect(await accessibilityViolations(page), 'the create page').toEqual([])
    })

    test('fit a 375 px wide screen', async ({ page }) => {
      await page.setViewportSize({ width: 375, height: 800 })
      await page.goto('/admin/language-levels')
      await expect(levelsTable(page).getByRole('row').nth(1)).toContainText('A1')
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow).toBeLessThanOrEqual(0)
      expect(await accessibilityViolations(page)).toEqual([])
    })
  })
}

test.describe('with no levels at all', () => {
  test('the list says "No data" (on a server of its own)', async ({ browser }) => {
    test.setTimeout(90_000)
    const server = await startOwnServer()
    try {
      const context = await browser.newContext({ baseURL: server.url, userAgent: desktopUserAgent })
      // The first account to confirm its email on a server without ADMIN_EMAILS becomes admin.
      await signedInAs(context, server.url, 'Only Admin')
      await context.request.get('/api/auth/get-session?disableCookieCache=true')
      const api = levelsApi(context.request, server.url)
      for (const level of await api.ordered()) await api.remove(level.id)

      const page = await context.newPage()
      await page.goto('/admin/language-levels')
      await expect(mainHeading(page)).toHaveText('Language levels')
      // Each empty state says what to do next.
      await expect(page.getByRole('cell', { name: 'No data' })).toContainText('Add the first one with “New level”')
      await expect(page.getByRole('navigation', { name: 'Pages', exact: true })).toHaveCount(0)
      await searchFor(page, 'A1')
      await expect(page.getByText('No matching data')).toBeVisible()
      await expect(page.getByText('Try other words, or clear the search.')).toBeVisible()
      await page.getByRole('button', { name: 'Reorder' }).click()
      await expect(page.getByRole('region', { name: 'Reorder levels' })).toContainText('No data')
      await expect(page.getByRole('region', { name: 'Reorder levels' })).toContainText('add a level first')
      expect(await accessibilityViolations(page)).toEqual([])
      await page.goto('/')
      await expect(page.getByRole('region', { name: 'The levels' })).toContainText(
        'The levels will show here once an administrator adds them.',
      )
      await context.close()
    } finally {
      await server.stop()
    }
  })
})
