import type { APIRequestContext, BrowserContext, Page } from '@playwright/test'
import ru from '@/client/locales/ru'
import { desktopUserAgent } from '../../playwright.config'
import { ViolationReport, colourModes, interfaceLanguages, prefer, settled } from './helpers/a11y'
import { signOutFromMenu, signedInAs, userMenuButton, waitForMail } from './helpers/accounts'
import { expect, expectNotStarted, failedResource, holdScripts, mainHeading, openBeforeStart, test } from './helpers/fixtures'
import { VirtualAuthenticator, withoutPasskeyAutofill } from './helpers/webauthn'

// Passkeys with Chromium's virtual authenticator (tests/e2e/webauthn.ts): added, listed, renamed
// and removed on /account (each change mailed), signing in with "Sign in with a passkey", a removed
// or another account's passkey, user verification required, and the email field's autofill.
//
// The virtual authenticator answers every request at once, the autofill's (conditional mediation)
// too: /login signs in by itself as soon as it opens. The tests of the button turn the autofill off
// (`withoutPasskeyAutofill`); the autofill's own test lets it work.

const methodsChanged = /^Your Lingua sign-in methods changed/

const signInMethods = (page: Page) => page.getByRole('region', { name: 'Sign-in methods', exact: true })
const passkeyButton = (page: Page) => page.getByRole('button', { name: 'Sign in with a passkey' })

/** On /account: "Add a passkey", named `name`, created by the page's authenticator. */
async function addPasskey(page: Page, name: string) {
  const methods = signInMethods(page)
  await methods.getByRole('button', { name: 'Add a passkey' }).click()
  await methods.getByLabel('Passkey name').fill(name)
  await methods.getByRole('button', { name: 'Create passkey' }).click()
  await expect(methods.getByText('Passkey added. You can sign in with it now.')).toBeVisible()
}

/** A new account signed in with a password, with a passkey "MacBook" in the page's authenticator. */
async function accountWithPasskey(page: Page, context: BrowserContext, baseURL: string, name: string) {
  const email = await signedInAs(context, baseURL, name)
  const authenticator = await VirtualAuthenticator.attach(page)
  await page.goto('/account')
  await addPasskey(page, 'MacBook')
  return { email, authenticator }
}

/** The email of the account the browser is signed in as, or null. */
async function signedInEmail(request: APIRequestContext): Promise<string | null> {
  const answer = await request.get('/api/auth/get-session?disableCookieCache=true')
  const session = (await answer.json()) as { user: { email: string } } | null
  return session?.user.email ?? null
}

/** The row of the passkey named `name` in the list. */
const passkeyRow = (page: Page, name: string) =>
  signInMethods(page)
    .getByRole('listitem')
    .filter({ has: page.getByText(name, { exact: true }) })

test('a passkey is added on /account, listed with its name and date, and mailed', async ({
  page,
  context,
  baseURL,
}) => {
  const { email, authenticator } = await accountWithPasskey(page, context, baseURL ?? '', 'Pia Passkey')

  const row = passkeyRow(page, 'MacBook')
  const today = new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date())
  await expect(row).toContainText(`Added ${today} · not used yet`)
  await expect(row.getByRole('button', { name: 'Rename MacBook' })).toBeVisible()
  await expect(row.getByRole('button', { name: 'Remove MacBook' })).toBeEnabled()

  // The authenticator holds a discoverable passkey for this site.
  const [credential, ...others] = await authenticator.credentials()
  expect(others).toEqual([])
  expect(credential).toMatchObject({ isResidentCredential: true, rpId: 'localhost' })

  const mail = await waitForMail(email, methodsChanged)
  expect(mail.text).toContain('A passkey (“MacBook”) was added to your account.')
})

test('"Sign in with a passkey" signs in, and /account shows when it was last used', async ({
  page,
  context,
  baseURL,
}) => {
  const name = 'Paul Passkey'
  await withoutPasskeyAutofill(page)
  const { email } = await accountWithPasskey(page, context, baseURL ?? '', name)
  await signOutFromMenu(page, name)

  await page.goto('/login')
  await passkeyButton(page).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(mainHeading(page)).toHaveText(`Hello, ${name}!`)
  expect(await signedInEmail(page.request)).toBe(email)

  await page.goto('/account')
  await expect(passkeyRow(page, 'MacBook')).toContainText(/last used (now|\d+ seconds? ago)/)
})

test('a browser that cannot convert WebAuthn JSON itself adds and uses a passkey through the library', async ({
  page,
  context,
  baseURL,
}) => {
  const name = 'Olga Older'
  // As in browsers before WebAuthn level 3 (Safari before 18.4, say).
  await page.addInitScript(() => {
    const constructor = PublicKeyCredential as unknown as Record<string, unknown>
    delete constructor.parseRequestOptionsFromJSON
    delete constructor.parseCreationOptionsFromJSON
  })
  await withoutPasskeyAutofill(page)
  const { email } = await accountWithPasskey(page, context, baseURL ?? '', name)
  await signOutFromMenu(page, name)

  await page.goto('/login')
  await passkeyButton(page).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  expect(await signedInEmail(page.request)).toBe(email)
})

test('"Sign in with a passkey" pressed before the app has started signs in once it has', async ({
  page,
  context,
  baseURL,
}) => {
  const name = 'Early Passkey'
  await withoutPasskeyAutofill(page)
  const { email } = await accountWithPasskey(page, context, baseURL ?? '', name)
  await signOutFromMenu(page, name)

  const release = await holdScripts(page)
  await openBeforeStart(page, '/login')
  await passkeyButton(page).click()
  await expectNotStarted(page)
  await release()
  await expect(page).toHaveURL(/\/dashboard$/)
  expect(await signedInEmail(page.request)).toBe(email)
})

test('a renamed, then removed passkey no longer signs in', async ({ page, context, baseURL, diagnostics }) => {
  // The sign-in with the removed passkey, refused.
  diagnostics.allowConsoleError(failedResource(401))
  const name = 'Rita Remove'
  await withoutPasskeyAutofill(page)
  const { email, authenticator } = await accountWithPasskey(page, context, baseURL ?? '', name)
  const methods = signInMethods(page)

  await methods.getByRole('button', { name: 'Rename MacBook' }).click()
  await methods.getByLabel('Passkey name').fill('Work laptop')
  await methods.getByRole('button', { name: 'Save' }).click()
  await expect(methods.getByText('The passkey is now called Work laptop.')).toBeVisible()
  await expect(passkeyRow(page, 'Work laptop')).toBeVisible()
  expect((await waitForMail(email, methodsChanged, 2)).text).toContain('A passkey of your account was renamed to “Work laptop”.')

  await methods.getByRole('button', { name: 'Remove Work laptop' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Remove the passkey “Work laptop”?' })
  await dialog.getByRole('button', { name: 'Remove passkey' }).click()
  await expect(dialog).toBeHidden()
  await expect(methods.getByText('Passkey removed.')).toBeVisible()
  await expect(methods.getByText('No passkeys yet.')).toBeVisible()
  expect((await waitForMail(email, methodsChanged, 3)).text).toContain('The passkey “Work laptop” was removed from your account.')

  // The authenticator still holds it: the server no longer knows it.
  expect(await authenticator.credentials()).toHaveLength(1)
  await signOutFromMenu(page, name)
  await page.goto('/login')
  await passkeyButton(page).click()
  await expect(page.getByRole('alert')).toHaveText('This passkey is not registered with Lingua. Sign in another way.')
  await expect(mainHeading(page)).toHaveText('Sign in')
  expect(await signedInEmail(page.request)).toBeNull()
})

test("another account's passkey signs in that account, never this one", async ({
  page,
  context,
  browser,
  baseURL,
  diagnostics,
}) => {
  // The forged answer below, refused.
  diagnostics.allowConsoleError(failedResource(401))
  diagnostics.allowConsoleError(failedResource(400))
  await withoutPasskeyAutofill(page)
  const first = await accountWithPasskey(page, context, baseURL ?? '', 'Anna First')
  const [firstCredential] = await first.authenticator.credentials()

  const secondContext = await browser.newContext({ baseURL, userAgent: desktopUserAgent })
  const secondPage = await secondContext.newPage()
  const second = await accountWithPasskey(secondPage, secondContext, baseURL ?? '', 'Bert Second')
  const [secondCredential] = await second.authenticator.credentials()
  await secondContext.close()
  expect(secondCredential?.credentialId).not.toBe(firstCredential?.credentialId)

  // This browser, signed out, now holds only the second account's passkey.
  await signOutFromMenu(page, 'Anna First')
  await first.authenticator.detach()
  const authenticator = await VirtualAuthenticator.attach(page)
  if (!secondCredential || !firstCredential) throw new Error('both authenticators hold a passkey')
  await authenticator.addCredential(secondCredential)

  // Its answer, sent as if it were the first account's passkey (that passkey's id and user): the
  // signature does not match that passkey, and nobody is signed in.
  await page.goto('/login')
  const firstId = Buffer.from(firstCredential.credentialId, 'base64').toString('base64url')
  const firstUser = firstCredential.userHandle && Buffer.from(firstCredential.userHandle, 'base64').toString('base64url')
  await page.route('**/api/auth/passkey/verify-authentication', async (route) => {
    const body = route.request().postDataJSON() as { response: Record<string, unknown> & { response: Record<string, unknown> } }
    body.response.id = firstId
    body.response.rawId = firstId
    if (firstUser) body.response.response.userHandle = firstUser
    await route.continue({ postData: JSON.stringify(body) })
  }, { times: 1 })
  const forged = page.waitForResponse('**/api/auth/passkey/verify-authentication')
  await passkeyButton(page).click()
  expect([400, 401]).toContain((await forged).status())
  await expect(page.getByRole('alert')).toBeVisible()
  expect(await signedInEmail(page.request)).toBeNull()

  // As it is: the server answers with the second account's session, and the page shows it.
  const verified = page.waitForResponse('**/api/auth/passkey/verify-authentication')
  await passkeyButton(page).click()
  const answer = await verified
  expect(answer.status()).toBe(200)
  expect(((await answer.json()) as { user: { email: string } }).user.email).toBe(second.email)
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(userMenuButton(page, 'Bert Second')).toBeVisible()
  expect(await signedInEmail(page.request)).toBe(second.email)
})

test('without user verification the browser refuses the passkey', async ({ page, context, baseURL }) => {
  const name = 'Uwe Unverified'
  await withoutPasskeyAutofill(page)
  const { authenticator } = await accountWithPasskey(page, context, baseURL ?? '', name)
  await signOutFromMenu(page, name)
  // The fingerprint or PIN check fails from now on.
  await authenticator.setUserVerified(false)

  // The app asks for user verification: the browser refuses to answer without it, as if the
  // person had closed its dialog.
  await page.goto('/login')
  await passkeyButton(page).click()
  await expect(page.getByRole('status').filter({ hasText: 'Passkey sign-in was cancelled.' })).toBeVisible()
  await expect(passkeyButton(page)).toBeEnabled()
  expect(await signedInEmail(page.request)).toBeNull()
})

test('the server refuses a passkey answer without user verification, and says so', async ({
  page,
  context,
  baseURL,
  diagnostics,
}) => {
  diagnostics.allowConsoleError(failedResource(400))
  const name = 'Vera Verify'
  await withoutPasskeyAutofill(page)
  const { authenticator } = await accountWithPasskey(page, context, baseURL ?? '', name)
  await signOutFromMenu(page, name)
  await authenticator.setUserVerified(false)

  // A page that asked for no user verification (the options rewritten on their way): the signed
  // answer says the person was not verified, and the server must refuse it.
  await page.route('**/api/auth/passkey/generate-authenticate-options', async (route) => {
    const response = await route.fetch()
    const options = (await response.json()) as Record<string, unknown>
    expect(options.userVerification).toBe('required')
    await route.fulfill({ response, json: { ...options, userVerification: 'discouraged' } })
  })
  await page.goto('/login')
  const refused = page.waitForResponse('**/api/auth/passkey/verify-authentication')
  await passkeyButton(page).click()
  const answer = await refused
  expect(answer.status()).toBeGreaterThanOrEqual(400)
  expect(((await answer.json()) as { error: { message: string } }).error.message).toBe(
    'The passkey did not verify you (PIN, fingerprint or face). Try again.',
  )
  expect(await signedInEmail(page.request)).toBeNull()
  await expect(page.getByRole('alert')).toHaveText('The passkey sign-in could not be completed. Try again.')
})

test('the email field offers the passkey, which signs in without a press', async ({ page, context, baseURL }) => {
  const name = 'Ada Autofill'
  const { email } = await accountWithPasskey(page, context, baseURL ?? '', name)
  await signOutFromMenu(page, name)

  // The virtual authenticator answers the moment the page asks, and the page then leaves /login:
  // the options are held back until the field has been looked at.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/api/auth/passkey/generate-authenticate-options', async (route) => {
    await held
    await route.continue()
  })
  const verified = page.waitForResponse('**/api/auth/passkey/verify-authentication')
  await page.goto('/login')
  // The field asks the browser to offer passkeys among its suggestions (conditional mediation).
  const field = page.getByLabel('Email')
  await expect(field).toHaveAttribute('autocomplete', /\bwebauthn\b/)
  await expect(field).toHaveAttribute('autocomplete', /\busername\b/)
  release()
  // A real browser waits until the person picks the passkey in the field's menu; the virtual
  // authenticator picks it at once. Nothing is pressed on the page.
  expect((await verified).status()).toBe(200)
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(mainHeading(page)).toHaveText(`Hello, ${name}!`)
  expect(await signedInEmail(page.request)).toBe(email)
})

for (const mode of colourModes) {
  test(`/account with a passkey passes axe in both languages, ${mode} mode`, async ({ page, context, browser, baseURL }) => {
    await accountWithPasskey(page, context, baseURL ?? '', `Axel ${mode === 'light' ? 'Light' : 'Dark'}`)
    const signedIn = await context.storageState()
    const report = new ViolationReport()
    for (const lang of interfaceLanguages) {
      const member = await browser.newContext({ baseURL, userAgent: desktopUserAgent, storageState: signedIn })
      try {
        await prefer(member, mode, lang)
        const account = await member.newPage()
        await account.goto('/account')
        await settled(account, mode, lang)
        const methods = account.getByRole('region', { name: lang === 'en' ? 'Sign-in methods' : ru.account.signInMethodsTitle, exact: true })
        const rename = lang === 'en' ? 'Rename MacBook' : ru.account.renamePasskey.replace('{name}', 'MacBook')
        await expect(methods.getByRole('button', { name: rename })).toBeVisible()
        await report.check(account, `/account with a passkey (${lang}, ${mode})`)
      } finally {
        await member.close()
      }
    }
    report.expectNone()
  })
}
