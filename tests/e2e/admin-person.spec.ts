import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from '@playwright/test'
import ru from '@/client/locales/ru'
import { desktopUserAgent } from '../../playwright.config'
import { ViolationReport, colourModes, interfaceLanguages, prefer, settled } from './helpers/a11y'
import {
  codeIn,
  confirmPath,
  password,
  signInWithPassword,
  signedInAs,
  subjects,
  uniqueEmail,
  userMenuButton,
  waitForMail,
} from './helpers/accounts'
import { adminStatePath } from './helpers/admin'
import { expect, expectErrorScreen, failedResource, mainHeading, open, test, toasts } from './helpers/fixtures'
import { VirtualAuthenticator, withoutPasskeyAutofill } from './helpers/webauthn'

// One person's page in the admin area (/admin/users/{id}): each action through its confirmation,
// seen from the person's own browser (a context of its own, signed in as them), in their mailbox
// and among the recent changes; one's own page; the keyboard in the dialogs; axe in both languages
// and colour modes; the two kinds of 404.

test.use({ storageState: adminStatePath })

const dialog = (page: Page) => page.getByRole('alertdialog')
const disabledSays = 'This account is disabled'

interface Person {
  name: string
  email: string
  id: string
  context: BrowserContext
  /** Their own tab, on their dashboard. */
  page: Page
}

/** The id of the account with `email`, as the administrator's people search finds it. */
async function idOf(request: APIRequestContext, email: string): Promise<string> {
  const answer = await request.get(`/api/admin/users?${new URLSearchParams({ q: email }).toString()}`)
  expect(answer.status()).toBe(200)
  const { items } = (await answer.json()) as { items: { id: string; email: string }[] }
  const found = items.find((item) => item.email === email)
  expect(found, `the account ${email} in the people search`).toBeDefined()
  return found?.id ?? ''
}

/** A new confirmed account, signed in in a browser of its own with its dashboard open. */
async function newPerson(browser: Browser, admin: Page, baseURL: string, name: string, setUp?: (page: Page) => Promise<void>): Promise<Person> {
  const context = await browser.newContext({ baseURL, userAgent: desktopUserAgent })
  const email = await signedInAs(context, baseURL, name)
  const page = await context.newPage()
  await setUp?.(page)
  await page.goto('/dashboard')
  await expect(mainHeading(page)).toHaveText(`Hello, ${name}!`)
  return { name, email, id: await idOf(admin.request, email), context, page }
}

/** The administrator on the person's page. */
async function openPerson(admin: Page, person: { id: string; name: string }) {
  await admin.goto(`/admin/users/${person.id}`)
  await expect(mainHeading(admin)).toHaveText(person.name)
}

/** Presses the page's button `label`, checks the dialog says `says`, confirms it with `confirm`. */
async function confirmAction(admin: Page, label: string, says: RegExp, confirm = label) {
  await admin.getByRole('button', { name: label, exact: true }).click()
  await expect(dialog(admin)).toContainText(says)
  await dialog(admin).getByRole('button', { name: confirm, exact: true }).click()
  await expect(dialog(admin)).toBeHidden()
}

/** The person reloads their tab: it is signed out (back to /login) or still on their dashboard. */
async function expectSignedOut(page: Page) {
  await page.reload()
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/)
}

/** The link to the admin area in the person's user menu (after a reload: no new sign-in). */
async function adminLink(person: Person): Promise<Locator> {
  await person.page.reload()
  await userMenuButton(person.page, person.name).click()
  return person.page.getByRole('banner').getByRole('link', { name: 'Administration', exact: true })
}

/** Each action, with the person it touched, is listed among the recent changes. */
async function expectRecentChanges(admin: Page, email: string, actions: string[]) {
  await admin.goto('/admin/recent-changes')
  const rows = admin.getByRole('row').filter({ hasText: email })
  for (const action of actions) await expect(rows.filter({ hasText: action })).toHaveCount(1)
}

test('make administrator, then remove it: their open tab gains and loses the admin area without signing in again; mailed and audited', async ({
  page,
  browser,
  baseURL,
  diagnostics,
}) => {
  diagnostics.allowConsoleError(failedResource(409))
  const person = await newPerson(browser, page, baseURL ?? '', 'Rosa Role')
  await expect(await adminLink(person)).toHaveCount(0)

  await openPerson(page, person)
  await confirmAction(page, 'Make administrator', /They can manage language levels and people.*They are emailed about it\./)
  await expect(toasts(page)).toContainText('Rosa Role is now an administrator')
  // The same button, now the other way round, has the focus back.
  await expect(page.getByRole('button', { name: 'Remove administrator' })).toBeFocused()
  await expect(page.getByRole('list', { name: 'Status' })).toContainText('Administrator')
  await waitForMail(person.email, /^You are now a Lingua administrator/)
  await expect(await adminLink(person)).toBeVisible()

  // The server's refusal is said in the dialog, in the interface language (the last administrator).
  await page.route(`**/api/admin/users/${person.id}/role`, (route) =>
    route.fulfill({ status: 409, json: { error: { code: 'conflict', message: 'The last administrator keeps the role.' } } }),
  )
  await page.getByRole('button', { name: 'Remove administrator' }).click()
  await dialog(page).getByRole('button', { name: 'Remove administrator' }).click()
  await expect(dialog(page).getByRole('alert')).toHaveText('Lingua must keep at least one administrator: this is the last one.')
  await page.unroute(`**/api/admin/users/${person.id}/role`)
  await dialog(page).getByRole('button', { name: 'Remove administrator' }).click()
  await expect(dialog(page)).toBeHidden()
  await expect(toasts(page)).toContainText('Rosa Role is no longer an administrator')
  await expect(page.getByRole('button', { name: 'Make administrator' })).toBeVisible()
  await waitForMail(person.email, /^You are no longer a Lingua administrator/)
  await expect(await adminLink(person)).toHaveCount(0)

  await expectRecentChanges(page, person.email, ['Granted the admin role', 'Revoked the admin role'])
  await person.context.close()
})

test('disable: their open tab is signed out, and a password, a code, a passkey and a provider are refused; enable lets them in again', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000)
  let authenticator: VirtualAuthenticator | undefined
  const person = await newPerson(browser, page, baseURL ?? '', 'Dora Disabled', async (own) => {
    // The passkey button is pressed below; the email field's autofill would answer by itself.
    await withoutPasskeyAutofill(own)
    authenticator = await VirtualAuthenticator.attach(own)
    await own.goto('/account')
    const methods = own.getByRole('region', { name: 'Sign-in methods', exact: true })
    await methods.getByRole('button', { name: 'Add a passkey' }).click()
    await methods.getByLabel('Passkey name').fill('Laptop')
    await methods.getByRole('button', { name: 'Create passkey' }).click()
    await expect(methods.getByText('Passkey added. You can sign in with it now.')).toBeVisible()
  })

  await openPerson(page, person)
  await expect(page.getByRole('main').getByText('Passkey: Laptop')).toBeVisible()
  await confirmAction(page, 'Disable account', /Every session of theirs ends at once, and every sign-in .* is refused/)
  await expect(toasts(page)).toContainText('The account of Dora Disabled is disabled')
  await expect(page.getByRole('list', { name: 'Status' })).toContainText('Disabled')
  await expect(page.getByRole('region', { name: 'Active sessions' })).toContainText('No active sessions.')
  await waitForMail(person.email, /^Your Lingua account was disabled/)

  const own = person.page
  await expectSignedOut(own)
  await signInWithPassword(own, person.email)
  await expect(own.getByRole('alert')).toHaveText(disabledSays)
  await own.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(own.getByRole('alert').filter({ hasText: disabledSays })).toHaveCount(2)

  await own.goto('/login?method=code')
  await own.getByLabel('Email').fill(person.email)
  await own.getByRole('button', { name: 'Send code' }).click()
  await own.getByLabel('Code').fill(codeIn(await waitForMail(person.email, subjects.code)))
  await own.getByRole('button', { name: 'Verify' }).click()
  await expect(own.getByRole('alert')).toHaveText(disabledSays)
  // A provider's sign-in comes back refused with the same sentence.
  await own.goto('/login?error=account_disabled')
  await expect(own.getByRole('alert')).toHaveText(disabledSays)
  await expect(own).toHaveURL(/\/login$/)

  await confirmAction(page, 'Enable account', /They can sign in again/)
  await expect(toasts(page)).toContainText('The account of Dora Disabled is enabled')
  await waitForMail(person.email, /^Your Lingua account was enabled/)
  await own.goto('/login')
  await signInWithPassword(own, person.email)
  await expect(own).toHaveURL(/\/dashboard$/)

  await expectRecentChanges(page, person.email, ['Disabled an account', 'Enabled an account'])
  await authenticator?.detach()
  await person.context.close()
})

test('sign out all sessions: their browser is signed out; revoking one session leaves the other', async ({
  page,
  browser,
  baseURL,
}) => {
  const person = await newPerson(browser, page, baseURL ?? '', 'Sami Sessions')
  // A second browser of theirs, a Firefox on Windows.
  const firefox = await browser.newContext({
    baseURL,
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:130.0) Gecko/20100101 Firefox/130.0',
  })
  const signIn = await firefox.request.post('/api/auth/sign-in/email', {
    headers: { Origin: baseURL ?? '' },
    data: { email: person.email, password },
  })
  expect(signIn.status()).toBe(200)
  const firefoxPage = await firefox.newPage()
  await firefoxPage.goto('/dashboard')
  await expect(mainHeading(firefoxPage)).toHaveText('Hello, Sami Sessions!')

  await openPerson(page, person)
  const sessions = page.getByRole('region', { name: 'Active sessions' })
  await expect(sessions.getByRole('listitem')).toHaveCount(2)
  await expect(sessions.getByRole('listitem').filter({ hasText: 'Chrome · Linux' })).toContainText('127.0.0.1')
  await sessions.getByRole('button', { name: 'Sign out Firefox · Windows' }).click()
  await expect(dialog(page)).toContainText('Firefox · Windows (127.0.0.1) is signed out at once')
  await dialog(page).getByRole('button', { name: 'Sign out', exact: true }).click()
  await expect(toasts(page)).toContainText('Session signed out')
  // Its button went with it: the focus is on the list's heading.
  await expect(sessions.getByRole('heading', { name: 'Active sessions' })).toBeFocused()
  await expect(sessions.getByRole('listitem')).toHaveCount(1)
  await expectSignedOut(firefoxPage)
  await person.page.reload()
  await expect(mainHeading(person.page)).toHaveText('Hello, Sami Sessions!')
  await waitForMail(person.email, /^A Lingua session of yours was ended/)

  await confirmAction(page, 'Sign out all sessions', /Their 1 active session ends at once/)
  await expect(toasts(page)).toContainText('Sami Sessions is signed out of every session')
  await expect(sessions).toContainText('No active sessions.')
  await expectSignedOut(person.page)
  await waitForMail(person.email, /^You were signed out of Lingua everywhere/)

  await expectRecentChanges(page, person.email, ['Ended a session', 'Signed out all sessions'])
  await firefox.close()
  await person.context.close()
})

test('resend confirmation: refused while the last email holds the address, then the new link arrives and confirms', async ({
  page,
  request,
  baseURL,
  diagnostics,
}) => {
  diagnostics.allowConsoleError(failedResource(429))
  const name = 'Ulla Unconfirmed'
  const email = uniqueEmail(name)
  const signUp = await request.post('/api/auth/sign-up/email', { headers: { Origin: baseURL ?? '' }, data: { name, email, password } })
  expect(signUp.status()).toBe(200)
  await waitForMail(email, subjects.confirm)
  const person = { name, id: await idOf(page.request, email) }

  await openPerson(page, person)
  await expect(page.getByRole('list', { name: 'Status' })).toContainText('Unconfirmed')
  await page.getByRole('button', { name: 'Resend confirmation' }).click()
  await expect(dialog(page)).toContainText(`Send a new confirmation email to ${email}?`)
  await dialog(page).getByRole('button', { name: 'Resend confirmation' }).click()
  await expect(dialog(page).getByRole('alert')).toContainText(/We emailed this address moments ago\. You can ask again in \d+ seconds?\./)
  // The sign-up's email holds the address for MAIL_THROTTLE_SECONDS (15 s on the test server):
  // asked again, a second apart, until the server sends it (a refusal claims nothing).
  await expect(async () => {
    const answered = page.waitForResponse((response) => response.url().endsWith('/resend-confirmation'))
    await dialog(page).getByRole('button', { name: 'Resend confirmation' }).click()
    expect((await answered).status()).toBe(204)
  }).toPass({ intervals: [1_000], timeout: 40_000 })
  await expect(dialog(page)).toBeHidden()
  await expect(toasts(page)).toContainText(`Confirmation email sent to ${email}`)

  const mail = await waitForMail(email, subjects.confirm, 2)
  const browserOfTheirs = await page.context().browser()?.newContext({ baseURL, userAgent: desktopUserAgent })
  const theirs = await browserOfTheirs?.newPage()
  await theirs?.goto(confirmPath(mail))
  if (theirs) await expect(theirs).toHaveURL(/\/dashboard$/)
  await page.reload()
  await expect(page.getByRole('button', { name: 'Resend confirmation' })).toHaveCount(0)
  await expectRecentChanges(page, email, ['Resent the confirmation email'])
  await browserOfTheirs?.close()
})

test('delete: only the typed email confirms; the person cannot sign in and the page is 404 "Account not found"', async ({
  page,
  browser,
  baseURL,
  diagnostics,
}) => {
  diagnostics.allowConsoleError(failedResource(404))
  diagnostics.allowConsoleError(failedResource(401))
  diagnostics.allowConsoleError(/Account not found/)
  const person = await newPerson(browser, page, baseURL ?? '', 'Dirk Deleted')
  await openPerson(page, person)
  await page.getByRole('button', { name: 'Delete account' }).click()
  await expect(dialog(page)).toContainText('This cannot be undone.')
  const confirm = dialog(page).getByRole('button', { name: 'Delete account' })
  const typed = dialog(page).getByLabel(`Type ${person.email} to confirm`)
  await expect(confirm).toBeDisabled()
  await typed.fill(`x${person.email}`)
  await expect(confirm).toBeDisabled()
  await typed.fill(person.email.toUpperCase())
  await confirm.click()
  await expect(toasts(page)).toContainText(`Account ${person.email} deleted`)
  await expect(page).toHaveURL(/\/admin\/users$/)
  await waitForMail(person.email, /^Your Lingua account was deleted/)

  await expectSignedOut(person.page)
  await signInWithPassword(person.page, person.email)
  await expect(person.page.getByRole('alert')).toHaveText('Wrong email or password.')

  await page.goto(`/admin/users/${person.id}`)
  await expectErrorScreen(page, 404, 'Account not found')
  await expectRecentChanges(page, person.email, ['Deleted an account'])
  await person.context.close()
})

test('on their own page an administrator sees what they cannot do to themselves, off and explained', async ({ page }) => {
  const session = (await (await page.request.get('/api/auth/get-session')).json()) as { user: { id: string; name: string } }
  await openPerson(page, session.user)
  await expect(page.getByRole('list', { name: 'Status' })).toContainText('You')
  const off = {
    'Remove administrator': 'You cannot remove your own administrator role.',
    'Disable account': 'You cannot disable your own account.',
    'Delete account': 'You cannot delete your own account here; use your account page.',
  }
  for (const [label, why] of Object.entries(off)) {
    const button = page.getByRole('button', { name: label, exact: true })
    await expect(button).toBeDisabled()
    await expect(button).toHaveAccessibleDescription(why)
  }
  await expect(page.getByRole('button', { name: 'Sign out all sessions' })).toBeEnabled()
  await expect(page.getByRole('region', { name: 'Active sessions' }).getByText('This device')).toBeVisible()
})

test('keyboard only: a dialog opens from its button, keeps Tab inside, and Escape gives the focus back', async ({
  page,
  browser,
  baseURL,
}) => {
  const person = await newPerson(browser, page, baseURL ?? '', 'Kai Keys')
  await person.context.close()
  await openPerson(page, person)
  const opener = page.getByRole('button', { name: 'Disable account' })
  await opener.focus()
  await page.keyboard.press('Enter')
  await expect(dialog(page)).toBeVisible()
  const cancel = dialog(page).getByRole('button', { name: 'Cancel' })
  const confirm = dialog(page).getByRole('button', { name: 'Disable account' })
  await expect(cancel).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(confirm).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(cancel).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(dialog(page)).toBeHidden()
  await expect(opener).toBeFocused()

  // The deletion's field is within the same loop; its confirm button is skipped while it is off.
  const deleteOpener = page.getByRole('button', { name: 'Delete account' })
  await deleteOpener.focus()
  await page.keyboard.press('Enter')
  // Open, with the focus in it (as above), before the next key.
  await expect(dialog(page).getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.keyboard.press('Shift+Tab')
  await expect(dialog(page).getByRole('textbox')).toBeFocused()
  await page.keyboard.press('Shift+Tab')
  await expect(dialog(page).getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(deleteOpener).toBeFocused()
  await expect(mainHeading(page)).toHaveText(person.name)
})

test('an unknown well-formed id is "Account not found"; a malformed one is not a page', async ({ page, diagnostics }) => {
  diagnostics.allowConsoleError(failedResource(404))
  diagnostics.allowConsoleError(/Account not found|Page Not Found/)
  await open(page, `/admin/users/${'A'.repeat(32)}`)
  await expectErrorScreen(page, 404, 'Account not found')
  await open(page, '/admin/users/not-an-id', 404)
  await expectErrorScreen(page, 404, 'Page Not Found: /admin/users/not-an-id')
})

for (const mode of colourModes) {
  test(`the page and its dialogs pass axe in both languages, ${mode} mode`, async ({ page, request, baseURL }) => {
    // An unconfirmed account: every action is offered.
    const name = 'Axel Axe'
    const email = uniqueEmail(name)
    const signUp = await request.post('/api/auth/sign-up/email', { headers: { Origin: baseURL ?? '' }, data: { name, email, password } })
    expect(signUp.status()).toBe(200)
    const id = await idOf(page.request, email)
    const report = new ViolationReport()
    for (const lang of interfaceLanguages) {
      const context = await page.context().browser()?.newContext({ baseURL, userAgent: desktopUserAgent, storageState: adminStatePath })
      const tab = await context?.newPage()
      if (!tab) throw new Error('no browser')
      await prefer(tab, mode, lang)
      await tab.goto(`/admin/users/${id}`)
      await settled(tab, mode, lang)
      await report.check(tab, `${lang} page`)
      const t = lang === 'en' ? null : ru.adminPerson
      for (const label of [t?.disable ?? 'Disable account', t?.deleteAccount ?? 'Delete account', t?.resend ?? 'Resend confirmation']) {
        await tab.getByRole('button', { name: label, exact: true }).click()
        await expect(dialog(tab)).toBeVisible()
        await report.check(tab, `${lang} dialog ${label}`)
        await tab.keyboard.press('Escape')
        await expect(dialog(tab)).toBeHidden()
      }
      await context?.close()
    }
    report.expectNone()
  })
}
