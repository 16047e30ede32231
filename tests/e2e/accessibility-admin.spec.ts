import type { Page } from '@playwright/test'
import {
  type ColourMode,
  type InterfaceLanguage,
  ViolationReport,
  colourModes,
  expectFieldError,
  interfaceLanguages,
  labelsIn,
  prefer,
  quiet,
  settled,
} from './helpers/a11y'
import { userMenuButton } from './helpers/accounts'
import { adminName, adminStatePath, levelsApi } from './helpers/admin'
import { expect, failedResource, open, test, visitorPages } from './helpers/fixtures'

// The administrator's side of accessibility.spec.ts (the `admin` project runs it with the signed-in
// administrator): axe on every route of docs/product.md §3 as an admin, in both colour modes and both
// interface languages, with the admin dialogs and modes open; then the level form's errors, each
// tied to its field and announced (the other forms are in form-errors.spec.ts).

const openPages = visitorPages.filter(({ path }) => path !== '/login' && path !== '/register')

async function visit(page: Page, path: string, mode: ColourMode, lang: InterfaceLanguage, status = 200) {
  await open(page, path, status)
  await settled(page, mode, lang)
}

async function seededA1(page: Page, baseURL: string | undefined) {
  const [a1] = (await levelsApi(page.context().request, baseURL ?? '').ordered()).filter((level) => level.code === 'A1')
  if (!a1) throw new Error('the seeded A1 is missing')
  return a1
}

test.use({ storageState: adminStatePath })

/** What each test of one language and colour mode starts with. */
async function start(page: Page, mode: ColourMode, lang: InterfaceLanguage) {
  await prefer(page, mode, lang)
  return {
    labels: labelsIn(lang),
    report: new ViolationReport(),
    main: page.getByRole('main'),
    dialog: page.getByRole('alertdialog'),
  }
}

// Each language × colour mode is three tests (the pages of everyone, the levels list and forms,
// one level and the error screens): one of them all would take a minute, near its limit on a
// loaded machine.
for (const lang of interfaceLanguages) {
  for (const mode of colourModes) {
    const inLanguageAndMode = `in ${lang === 'en' ? 'English' : 'Russian'}, ${mode} mode`

    test(`the pages every signed-in person opens, the user menu, the command palette and the account's delete confirmation have no WCAG violations for an administrator, ${inLanguageAndMode}`, async ({
      page,
    }) => {
      const { labels, report, main } = await start(page, mode, lang)
      for (const { path } of openPages) {
        await visit(page, path, mode, lang)
        await report.check(page, path)
      }

      await visit(page, '/dashboard', mode, lang)
      await report.check(page, '/dashboard')
      // Their own progress and memory model, on the learners' page (its figures loaded: "30" days).
      await visit(page, '/progress', mode, lang)
      await expect(main.getByRole('button', { name: /30/ }).first()).toBeVisible()
      await report.check(page, '/progress (administrator)')
      await userMenuButton(page, adminName).click()
      await expect(page.getByRole('banner').getByRole('link', { name: /./ }).last()).toHaveAttribute('href', '/admin')
      await report.check(page, 'user menu open (with the admin link)')
      await page.keyboard.press('Escape')
      await page.keyboard.press('Control+k')
      await expect(page.getByRole('dialog').getByRole('option', { name: /A1/ })).toBeVisible()
      await report.check(page, 'command palette with the levels')
      await page.keyboard.press('Escape')

      await visit(page, '/account', mode, lang)
      await page.getByRole('button', { name: labels.deleteAccountOpen }).click()
      await expect(main.getByRole('textbox', { name: labels.password, exact: true })).toBeVisible()
      await report.check(page, '/account with the delete confirmation open')

      // An administrator's own decks, on the learners' pages (made here, deleted again).
      const headers = { Origin: new URL(page.url()).origin }
      const request = page.context().request
      const made = await request.post('/api/me/decks', { headers, data: { name: `Admin deck ${lang} ${mode}`, language: 'en' } })
      expect(made.status(), await made.text()).toBe(201)
      const deck = (await made.json()) as { id: number }
      try {
        const word = await request.post(`/api/me/decks/${deck.id}/words`, { headers, data: { text: 'ladle', translationRu: 'половник', tags: [] } })
        expect(word.status(), await word.text()).toBe(201)
        await visit(page, '/decks', mode, lang)
        await expect(main.getByRole('link', { name: `Admin deck ${lang} ${mode}` })).toBeVisible()
        await report.check(page, '/decks (administrator)')
        await visit(page, `/decks/${deck.id}`, mode, lang)
        await expect(main.getByRole('table').getByRole('row')).toHaveCount(2)
        await report.check(page, '/decks/{id} (administrator)')
        // Away from the deck's page first: its deletion, heard live, would have it read a missing deck.
        await visit(page, '/decks', mode, lang)
      } finally {
        await request.delete(`/api/me/decks/${deck.id}`, { headers })
      }
      report.expectNone()
    })

    test(`the levels list, its delete dialog, reorder mode and the level forms have no WCAG violations, ${inLanguageAndMode}`, async ({
      page,
    }) => {
      const { labels, report, main, dialog } = await start(page, mode, lang)
      await visit(page, '/admin/language-levels', mode, lang)
      await expect(main.getByRole('table').first().getByRole('row').nth(1)).toContainText('A1')
      await report.check(page, '/admin/language-levels')
      await main.getByRole('button', { name: labels.deleteNamed('A1') }).click()
      await expect(dialog).toBeVisible()
      await quiet(page)
      await report.check(page, 'delete-level dialog (list)')
      await dialog.getByRole('button', { name: labels.cancel }).click()
      await expect(dialog).toHaveCount(0)
      await main.getByRole('button', { name: labels.reorder }).click()
      await expect(main.getByRole('listitem').first()).toBeVisible()
      await settled(page, mode, lang)
      await report.check(page, 'reorder mode')

      for (const path of ['/create', '/admin/language-levels/create']) {
        await visit(page, path, mode, lang)
        await expect(main.getByRole('textbox').first()).toBeEditable()
        await report.check(page, path)
      }
      await main.getByRole('button', { name: lang === 'en' ? 'Create level' : /./ }).last().click()
      await expect(main.locator('[aria-invalid="true"]')).toHaveCount(2)
      await report.check(page, 'the level form with field errors')
      report.expectNone()
    })

    test(`a level, its delete dialog and the 404 screens have no WCAG violations, ${inLanguageAndMode}`, async ({
      page,
      baseURL,
      diagnostics,
    }) => {
      diagnostics.allowConsoleError(failedResource(404))
      // The error screen logs what it shows.
      diagnostics.allowConsoleError(/Language level not found|Page Not Found/)
      const { labels, report, main, dialog } = await start(page, mode, lang)
      const a1 = await seededA1(page, baseURL)
      await visit(page, `/admin/language-levels/${a1.id}`, mode, lang)
      await report.check(page, 'a level')
      await main.getByRole('button', { name: labels.delete, exact: true }).click()
      await expect(dialog).toBeVisible()
      await quiet(page)
      await report.check(page, 'delete-level dialog (level page)')
      await page.keyboard.press('Escape')
      await expect(dialog).toHaveCount(0)

      for (const path of ['/admin/language-levels/not-a-number', '/admin/language-levels/999999', '/no-such-page']) {
        await visit(page, path, mode, lang, path === '/admin/language-levels/999999' ? 200 : 404)
        await expect(page.getByTestId('error-status')).toHaveText('404')
        await report.check(page, `${path} (404 error screen)`)
      }
      report.expectNone()
    })
  }
}

test.describe('the level form', () => {
  test('create: every refused field says why, tied to it and announced; focus goes to the first', async ({
    page,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(failedResource(409))
    await open(page, '/admin/language-levels/create')
    const code = page.getByRole('textbox', { name: 'Code' })
    const name = page.getByRole('textbox', { name: 'Name' })
    const description = page.getByRole('textbox', { name: 'Description' })
    const create = page.getByRole('button', { name: 'Create level' })

    await create.click()
    await expectFieldError(code, 'Required')
    await expectFieldError(name, 'Required')
    await expect(code).toBeFocused()
    await expect(description).toHaveAttribute('aria-invalid', 'false')

    await code.fill('B 2')
    await name.fill('x'.repeat(101))
    await description.fill('y'.repeat(2001))
    await create.click()
    await expectFieldError(code, 'Use letters, digits and + . _ - only')
    await expectFieldError(name, 'At most 100 characters')
    await expectFieldError(description, /^At most 2,000 characters$/)
    await expect(code).toBeFocused()

    // The server's refusal (a code another level has) lands on the field the same way.
    await code.fill('a1')
    await name.fill('Duplicate')
    await description.fill('')
    await create.click()
    await expectFieldError(code, 'Another level already uses this code.')
    await expect(code).toBeFocused()
    await expect(name).toHaveAttribute('aria-invalid', 'false')
  })

  test('edit: a refused field says why, tied to it and announced', async ({ page, baseURL }) => {
    const a1 = await seededA1(page, baseURL)
    await open(page, `/admin/language-levels/${a1.id}`)
    const code = page.getByRole('textbox', { name: 'Code' })
    const name = page.getByRole('textbox', { name: 'Name' })
    await code.fill('')
    await name.fill('')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expectFieldError(code, 'Required')
    await expectFieldError(name, 'Required')
    await expect(code).toBeFocused()
  })
})
