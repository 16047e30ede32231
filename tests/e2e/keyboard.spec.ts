import { expectHeadingFocused, expectVisibleFocus, press, quiet, tabTo } from './helpers/a11y'
import { confirmPath, password, subjects, uniqueEmail, waitForMail } from './helpers/accounts'
import { type Level, startOwnServer, uniqueCode } from './helpers/admin'
import { expect, mainHeading, test, toasts } from './helpers/fixtures'

// The whole journey with the keyboard alone (Tab, Shift+Tab, Enter, Space, arrows, Escape, typing):
// register, confirm (the emailed link is followed by navigation: the email is outside the page),
// sign out and in, save the learning profile, then as the administrator create, edit, reorder and
// delete a level. Every focus stop must show a focus indicator, and every key waits for the element
// it should reach (after a navigation, the new page's heading), never for time. It runs on a server
// of its own: its first confirmed account becomes the administrator, and its reorder names every
// level, which the shared server's other journeys would change meanwhile.


test('register → confirm → sign in → profile → create, edit, reorder and delete a level, by keyboard alone', async ({
  page,
}) => {
  // The whole journey in one test, a key at a time with a check at every stop: about 25 s on a
  // quiet machine, 60 s on a loaded one.
  test.setTimeout(180_000)
  const server = await startOwnServer()
  try {
    const url = (path: string) => `${server.url}${path}`
    const orderedLevels = async () => {
      const response = await page.request.get(url('/api/language-levels?sort=position&pageSize=100'))
      expect(response.status()).toBe(200)
      return ((await response.json()) as { items: Level[] }).items
    }
    const name = 'Kay Board'
    const email = uniqueEmail(name)
    const banner = page.getByRole('banner')
    const main = page.getByRole('main')

    // The skip link is the first stop, and it moves focus to the page's content.
    await page.goto(url('/'))
    await expect(mainHeading(page)).toBeVisible()
    await press(page, 'Tab', page.getByRole('link', { name: 'Skip to content' }))
    await page.keyboard.press('Enter')
    await expect(main).toBeFocused()

    // Register.
    await tabTo(page, main.getByRole('link', { name: 'Get started' }))
    await page.keyboard.press('Enter')
    await expectHeadingFocused(page, 'Create an account')
    await tabTo(page, main.getByRole('textbox', { name: 'Name' }))
    await page.keyboard.type(name)
    await press(page, 'Tab', main.getByRole('textbox', { name: 'Email' }))
    await page.keyboard.type(email)
    const passwordField = main.getByRole('textbox', { name: 'Password', exact: true })
    const showPassword = main.getByRole('button', { name: 'Show password' }).first()
    await press(page, 'Tab', passwordField)
    await page.keyboard.type(password)
    await press(page, 'Tab', showPassword)
    // Space presses the button: the password shows; Shift+Tab goes back to check it.
    await page.keyboard.press('Space')
    await expect(passwordField).toHaveAttribute('type', 'text')
    await press(page, 'Shift+Tab', passwordField)
    await press(page, 'Tab', showPassword)
    await expect(showPassword).toHaveAttribute('aria-pressed', 'true')
    await press(page, 'Tab', main.getByRole('textbox', { name: 'Confirm password' }))
    await page.keyboard.type(password)
    await tabTo(page, main.getByRole('button', { name: 'Create account' }))
    await page.keyboard.press('Enter')
    // The form gives way to "Check your email": focus goes to the heading, not to the document.
    await expectHeadingFocused(page, 'Check your email')

    // Confirm: the emailed link signs the new user in (the first on this server: the administrator).
    await page.goto(url(confirmPath(await waitForMail(email, subjects.confirm))))
    await expect(page).toHaveURL(/\/dashboard$/)
    // The confirm page sends the new user on to the dashboard: its heading has focus.
    await expectHeadingFocused(page, `Hello, ${name}!`, { keyboard: false })

    // Sign out from the user menu (in the header, above the heading); Escape closes it first, and
    // focus stays on its button.
    const menuButton = banner.getByRole('button', { name, exact: true })
    await tabTo(page, menuButton, { backwards: true })
    await page.keyboard.press('Enter')
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true')
    await page.keyboard.press('Escape')
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false')
    await expect(menuButton).toBeFocused()
    await page.keyboard.press('Enter')
    await tabTo(page, banner.getByRole('button', { name: 'Sign out' }))
    await page.keyboard.press('Enter')
    // Signed out, on the home page: its heading has focus; the header is above it.
    await expectHeadingFocused(page, 'Learn a language level by level')
    await expect(banner.getByRole('link', { name: 'Sign in' })).toBeVisible()

    // Sign in.
    await tabTo(page, banner.getByRole('link', { name: 'Sign in' }), { backwards: true })
    await page.keyboard.press('Enter')
    await expectHeadingFocused(page, 'Sign in')
    await tabTo(page, main.getByRole('textbox', { name: 'Email' }))
    await page.keyboard.type(email)
    await press(page, 'Tab', main.getByRole('textbox', { name: 'Password', exact: true }))
    await page.keyboard.type(password)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/dashboard$/)
    await expectHeadingFocused(page, `Hello, ${name}!`)

    // The learning profile: arrows choose in the selects.
    const language = main.getByRole('combobox', { name: 'Language' })
    await tabTo(page, language)
    await page.keyboard.press('ArrowDown')
    await expect(language).not.toHaveValue('')
    const currentLevel = main.getByRole('combobox', { name: 'Current level' })
    await press(page, 'Tab', currentLevel)
    await page.keyboard.press('ArrowDown')
    await expect(currentLevel).toHaveValue(/\d+/)
    const targetLevel = main.getByRole('combobox', { name: 'Target level' })
    await press(page, 'Tab', targetLevel)
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await expect(targetLevel).toHaveValue(/\d+/)
    await tabTo(page, main.getByRole('button', { name: 'Save profile' }))
    await page.keyboard.press('Enter')
    await expect(toasts(page)).toContainText('Profile saved')
    // F8 reaches the notifications, Tab the toast itself, Escape dismisses it. Once the toast has
    // slid in, as a person reads it first: Radix's viewport learns of a new toast in an effect, and
    // a Tab before it has run passes the toast by.
    await quiet(page)
    await press(page, 'F8', toasts(page).getByRole('list'))
    const saved = toasts(page).locator('li').filter({ hasText: 'Profile saved' })
    await press(page, 'Tab', saved)
    await page.keyboard.press('Escape')
    // That toast (the confirmation's, "Email confirmed", may still be showing).
    await expect(saved).toHaveCount(0)
    const profile = (await (await page.request.get(url('/api/me/profile'))).json()) as Record<string, unknown>
    expect(profile).toMatchObject({ language: await language.inputValue() })

    // To the admin area through the command palette: type, Enter.
    await page.keyboard.press('Control+k')
    const palette = page.getByRole('dialog')
    await expect(palette.getByRole('combobox')).toBeFocused()
    await expectVisibleFocus(page, 'opening the command palette')
    await page.keyboard.type('All levels')
    await page.keyboard.press('Enter')
    await expect(palette).toHaveCount(0)
    await expectHeadingFocused(page, 'Language levels')

    // Create.
    const code = uniqueCode('K')
    await tabTo(page, main.getByRole('link', { name: 'New level' }))
    await page.keyboard.press('Enter')
    await expectHeadingFocused(page, 'New level')
    await tabTo(page, main.getByRole('textbox', { name: 'Code' }))
    await page.keyboard.type(code)
    await press(page, 'Tab', main.getByRole('textbox', { name: 'Name' }))
    await page.keyboard.type('Made by keyboard')
    await press(page, 'Tab', main.getByRole('textbox', { name: 'Description' }))
    await page.keyboard.type('Typed, never clicked.')
    await tabTo(page, main.getByRole('button', { name: 'Create level' }))
    await page.keyboard.press('Enter')
    // The new level's page replaces the form (and the button that had focus): its heading takes
    // focus, and the next Tab starts from there.
    await expect(page).toHaveURL(/\/admin\/language-levels\/\d+$/)
    await expectHeadingFocused(page, `${code} Made by keyboard`)
    await expect(toasts(page)).toContainText(`Level ${code} created`)
    const id = Number(new URL(page.url()).pathname.split('/').pop())

    // Edit.
    await tabTo(page, main.getByRole('textbox', { name: 'Name' }))
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type('Edited by keyboard')
    await tabTo(page, main.getByRole('button', { name: 'Save changes' }))
    await page.keyboard.press('Enter')
    await expect(toasts(page)).toContainText('Changes saved')
    await expect(mainHeading(page)).toContainText('Edited by keyboard')

    // Back to the list by the breadcrumb (backwards: it is above the form).
    await tabTo(page, main.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Language levels' }), { backwards: true })
    await page.keyboard.press('Enter')
    await expectHeadingFocused(page, 'Language levels')

    // Reorder: pick the new level up with Space, move it up with an arrow, drop it with Space.
    await tabTo(page, main.getByRole('button', { name: 'Reorder' }))
    await page.keyboard.press('Enter')
    const panel = page.getByRole('region', { name: 'Reorder levels' })
    await expect(panel.getByRole('heading', { name: 'Reorder levels' })).toBeFocused()
    const before = (await orderedLevels()).map((level) => level.code)
    expect(before.at(-1)).toBe(code)
    const handle = panel.getByRole('button', { name: `Move ${code} ` })
    await tabTo(page, handle)
    // Each step is announced (dnd-kit's live region); the next key waits for it.
    const live = page.locator('[id^="DndLiveRegion"]')
    await page.keyboard.press('Space')
    await expect(live).toContainText(`Picked up level ${code}`)
    await page.keyboard.press('ArrowUp')
    await expect(live).toContainText(`Level ${code} is now at position`)
    await page.keyboard.press('Space')
    await expect(live).toContainText(`Level ${code} dropped at position`)
    await expect(panel.getByRole('listitem').nth(before.length - 2)).toContainText(code)
    // Focus stays on the handle of the level just moved.
    await expect(handle).toBeFocused()
    await expectVisibleFocus(page, 'dropping the level')
    await tabTo(page, panel.getByRole('button', { name: 'Save order' }))
    await page.keyboard.press('Enter')
    await expect(toasts(page)).toContainText('Order saved')
    await expect(main.getByRole('button', { name: 'Reorder' })).toBeFocused()
    const after = (await orderedLevels()).map((level) => level.code)
    expect(after).toEqual([...before.slice(0, -2), code, before.at(-2)])

    // Delete: Escape closes the confirmation and gives focus back; then confirm for real.
    const deleteButton = main.getByRole('button', { name: `Delete ${code}` })
    await tabTo(page, deleteButton)
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('alertdialog')
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await expectVisibleFocus(page, 'opening the delete dialog')
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(deleteButton).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await press(page, 'Tab', dialog.getByRole('button', { name: 'Delete level' }))
    await page.keyboard.press('Enter')
    await expect(toasts(page)).toContainText(`Level ${code} deleted`)
    await expect(dialog).toHaveCount(0)
    // The row and its button are gone: the page's heading has focus, and shows it.
    await expectHeadingFocused(page, 'Language levels')
    expect((await orderedLevels()).map((level) => level.id)).not.toContain(id)
  } finally {
    await server.stop()
  }
})
