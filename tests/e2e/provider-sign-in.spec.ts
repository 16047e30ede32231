import { createHash } from 'node:crypto'
import type { APIRequestContext, Browser, Page } from '@playwright/test'
import ru from '@/client/locales/ru'
import type { SignInMethods } from '@/shared/sign-in-methods'
import { desktopUserAgent } from '../../playwright.config'
import { ViolationReport, colourModes, interfaceLanguages, prefer, settled } from './helpers/a11y'
import {
  authenticatorCode,
  mailsTo,
  password,
  signOutFromMenu,
  signedInAs,
  subjects,
  userMenuButton,
  waitForMail,
} from './helpers/accounts'
import { expect, holdScripts, mainHeading, openBeforeStart, test } from './helpers/fixtures'
import {
  clearProviderRequests,
  holdCallback,
  newProviderUser,
  providerPage,
  providerRequests,
  restoreProvider,
  signInAndConsent,
  signInAtProvider,
  slowProvider,
  startProvider,
  stopProvider,
  tamperNextIdToken,
} from './helpers/oidc'

// Signing in with an OpenID provider ("Continue with Acme", tests/e2e/oidc-provider.ts) through its
// real login and consent pages, every failure landing on /login with its sentence, two-step
// verification after the provider, and linking and unlinking on /account.

// One provider for the whole run: stopping, slowing or tampering with it must not hit another test.
test.describe.configure({ mode: 'serial' })

test.afterEach(async () => {
  await restoreProvider()
})

/** What /login says for each kind of provider failure (components/sign-in/messages.ts). */
const says = {
  cancelled: 'You cancelled the sign-in at the provider. Nothing was changed.',
  expired: 'This sign-in link has expired or was already used. Start again.',
  unavailable: 'The provider could not be reached or refused the sign-in. Try again later.',
  timeout: 'The provider took too long to answer. Try again.',
  unverifiable: "The provider's answer could not be verified. Nothing was changed.",
  emailNotVerified:
    'The provider has not verified this email address, so no account was created. Verify it at the provider or register with a password.',
  accountNotLinked:
    'An account with this email already exists. Sign in to it another way, then link the provider on your account page.',
}
const methodsChanged = /^Your Lingua sign-in methods changed/

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true })
const continueWithAcme = (page: Page) => page.getByRole('button', { name: 'Continue with Acme' })

/** From /login (with `?redirect=`), to the provider's login page. */
async function leaveForProvider(page: Page, redirect?: string) {
  await page.goto(redirect ? `/login?${new URLSearchParams({ redirect }).toString()}` : '/login')
  await continueWithAcme(page).click()
}

/** The email of the account the browser is signed in as, or null. */
async function signedInEmail(request: APIRequestContext): Promise<string | null> {
  const answer = await request.get('/api/auth/get-session?disableCookieCache=true')
  const session = (await answer.json()) as { user: { email: string } } | null
  return session?.user.email ?? null
}

/** Back on /login with the sentence for the failure, the `?error=` already gone, signed out. */
async function expectRefused(page: Page, sentence: string) {
  await expect(page).toHaveURL(/\/login$/)
  await expect(mainHeading(page)).toHaveText('Sign in')
  await expect(page.getByText(sentence, { exact: true })).toBeVisible()
  expect(await signedInEmail(page.request)).toBeNull()
}

/**
 * Whether the app has an account with `email`: registering it again mails its owner "you already
 * have an account", a new address gets the confirmation link (and nothing is signed in).
 */
async function expectNoAccount(request: APIRequestContext, baseURL: string, email: string) {
  const signUp = await request.post('/api/auth/sign-up/email', {
    headers: { Origin: baseURL },
    data: { name: 'Probe', email, password },
  })
  expect(signUp.status()).toBe(200)
  await waitForMail(email, subjects.confirm)
  expect((await mailsTo(email)).map((mail) => mail.subject).filter((subject) => /already have/.test(subject))).toEqual([])
}

async function newBrowsingContext(browser: Browser, baseURL: string | undefined) {
  return browser.newContext({ baseURL, userAgent: desktopUserAgent })
}

test('a new person signs in with Acme through its login and consent pages, with PKCE S256', async ({ page }) => {
  const user = await newProviderUser('Nadia Acme')
  await clearProviderRequests()
  await leaveForProvider(page, '/account')
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//)
  await signInAndConsent(page, user)

  await expect(page).toHaveURL(/\/\/localhost:\d+\/account$/)
  await expect(mainHeading(page)).toHaveText('Account')
  await expect(userMenuButton(page, user.name)).toBeVisible()
  await expect(section(page, 'Email').getByText(`You sign in with ${user.email}.`)).toBeVisible()
  const methods = section(page, 'Sign-in methods')
  await expect(methods.getByText(/^Linked on /)).toBeVisible()
  await expect(methods.getByText(/^Not set/)).toBeVisible()

  // From the provider's side: a PKCE S256 challenge, then the verifier that hashes to it.
  const { authorization, token } = await providerRequests()
  const asked = authorization.at(-1)?.params
  expect(asked).toMatchObject({ response_type: 'code', code_challenge_method: 'S256' })
  expect(asked?.code_challenge).toMatch(/^[\w-]{43}$/)
  expect(asked?.state).toMatch(/.{16,}/)
  expect(asked?.nonce).toMatch(/.{16,}/)
  const exchanged = token.find(
    (request) =>
      createHash('sha256')
        .update(request.params.code_verifier ?? '')
        .digest('base64url') === asked?.code_challenge,
  )
  expect(exchanged, 'a token request with the verifier of that challenge').toBeDefined()
  expect(exchanged?.params.code_verifier).toMatch(/^[\w-]{43,128}$/)
  expect(exchanged?.params.grant_type).toBe('authorization_code')
  expect(exchanged?.status).toBe(200)
})

test('"Continue with Acme" pressed before the app has started goes to the provider: it is a form', async ({ page }) => {
  const user = await newProviderUser('Early Acme')
  await holdScripts(page)
  await openBeforeStart(page, '/login?redirect=%2Faccount')
  await continueWithAcme(page).click()
  // The scripts are still held: the server's answer to the form took the browser there.
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//)
  await page.unrouteAll({ behavior: 'ignoreErrors' })
  await signInAndConsent(page, user)
  await expect(page).toHaveURL(/\/\/localhost:\d+\/account$/)
  await expect(userMenuButton(page, user.name)).toBeVisible()
})

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false })

  test('"Continue with Acme" reaches the provider', async ({ page }) => {
    await page.goto('/register')
    await continueWithAcme(page).click()
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//)
  })
})

test('cancelling at the provider comes back to /login, signed out', async ({ page }) => {
  await newProviderUser('Carl Cancel')
  await leaveForProvider(page)
  await expect(providerPage.login(page)).toBeVisible()
  await providerPage.cancel(page).click()
  await expectRefused(page, says.cancelled)
})

test('a tampered state is refused; a callback that already signed in does not sign in again', async ({
  page,
  browser,
  baseURL,
}) => {
  const user = await newProviderUser('Tess Tamper')
  await leaveForProvider(page)
  await signInAtProvider(page, user)
  const held = await holdCallback(page)
  await providerPage.consent(page).click()
  const callback = await held()

  const tampered = new URL(callback)
  tampered.searchParams.set('state', `${callback.searchParams.get('state') ?? ''}x`)
  await page.goto(tampered.href)
  await expectRefused(page, says.expired)

  // The genuine callback still signs in (the tampered one used nothing up).
  await page.goto(callback.href)
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(userMenuButton(page, user.name)).toBeVisible()

  // The same callback again, from another browser: refused, nobody signed in.
  const other = await newBrowsingContext(browser, baseURL)
  try {
    const otherPage = await other.newPage()
    await otherPage.goto(callback.href)
    await expectRefused(otherPage, says.expired)
  } finally {
    await other.close()
  }

  // And from this browser: still the same person, nothing else happened.
  await page.goto(callback.href)
  await expect(userMenuButton(page, user.name)).toBeVisible()
  expect(await signedInEmail(page.request)).toBe(user.email)
})

test('a stopped provider and a slow one are said on /login', async ({ page }) => {
  const user = await newProviderUser('Sam Stopped')
  await leaveForProvider(page)
  await signInAtProvider(page, user)
  let held = await holdCallback(page)
  await providerPage.consent(page).click()
  const callback = await held()
  await stopProvider()
  try {
    await page.goto(callback.href)
    await expectRefused(page, says.unavailable)
  } finally {
    await startProvider()
  }

  // Single sign-on: the provider sends the browser straight back this time.
  held = await holdCallback(page)
  await continueWithAcme(page).click()
  const later = await held()
  await slowProvider(15_000)
  try {
    // The app answers within its OIDC_TIMEOUT_MS (3 s), not the provider's 15 s.
    await page.goto(later.href)
    await expectRefused(page, says.timeout)
  } finally {
    await slowProvider(0)
  }
})

test('an ID token for another audience is refused and makes no account', async ({ page, request, baseURL }) => {
  const user = await newProviderUser('Wanda Wrong')
  await tamperNextIdToken({ aud: 'someone-else' })
  await leaveForProvider(page)
  await signInAndConsent(page, user)
  await expectRefused(page, says.unverifiable)
  await expectNoAccount(request, baseURL ?? '', user.email)
})

test('an email the provider has not verified makes no account', async ({ page, request, baseURL }) => {
  const user = await newProviderUser('Uma Unverified', { verified: false })
  await leaveForProvider(page)
  await signInAndConsent(page, user)
  await expectRefused(page, says.emailNotVerified)
  await expectNoAccount(request, baseURL ?? '', user.email)
})

test("an unverified identity with an existing account's email is not linked to it", async ({
  page,
  browser,
  baseURL,
}) => {
  const owner = await newBrowsingContext(browser, baseURL)
  const email = await signedInAs(owner, baseURL ?? '', 'Olga Owner')
  const user = await newProviderUser('Olga Imposter', { email, verified: false })
  await leaveForProvider(page)
  await signInAndConsent(page, user)
  await expectRefused(page, says.accountNotLinked)

  // The owner's account has no provider and nothing was mailed about one.
  const methods = (await (await owner.request.get('/api/me/sign-in-methods')).json()) as SignInMethods
  expect(methods.providers.flatMap((provider) => provider.linked)).toEqual([])
  expect((await mailsTo(email)).filter((mail) => methodsChanged.test(mail.subject))).toEqual([])
  await owner.close()
})

test('an account with two-step verification on asks for the code after Acme', async ({ page, context, baseURL }) => {
  const name = 'Mia Twostep'
  const email = await signedInAs(context, baseURL ?? '', name)
  const headers = { Origin: baseURL ?? '' }
  const enabled = await page.request.post('/api/auth/two-factor/enable', { headers, data: { password } })
  expect(enabled.status()).toBe(200)
  const { totpURI } = (await enabled.json()) as { totpURI: string }
  const secret = new URL(totpURI).searchParams.get('secret') ?? ''
  const confirmed = await page.request.post('/api/auth/two-factor/verify-totp', {
    headers,
    data: { code: await authenticatorCode(secret) },
  })
  expect(confirmed.status()).toBe(200)

  const user = await newProviderUser(name, { email })
  await page.goto('/account')
  await section(page, 'Sign-in methods').getByRole('button', { name: 'Link Acme' }).click()
  await signInAndConsent(page, user)
  await expect(page).toHaveURL(/\/account$/)
  await expect(section(page, 'Sign-in methods').getByText('Acme is linked to your account.')).toBeVisible()
  await signOutFromMenu(page, name)

  // The provider remembers the person (single sign-on) and sends the browser straight back.
  await leaveForProvider(page, '/account')
  await expect(page).toHaveURL(/\/login\?.*step=second-factor/)
  await expect(mainHeading(page)).toHaveText('Two-step verification')
  expect(await signedInEmail(page.request)).toBeNull()
  await page.getByLabel('Authentication code').fill(await authenticatorCode(secret))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(/\/account$/)
  await expect(userMenuButton(page, name)).toBeVisible()
  expect(await signedInEmail(page.request)).toBe(email)
})

test('Acme is linked and unlinked on /account, each change mailed', async ({ page, context, baseURL }) => {
  const email = await signedInAs(context, baseURL ?? '', 'Lena Linker')
  const user = await newProviderUser('Lena Linker', { email })
  await page.goto('/account')
  const methods = section(page, 'Sign-in methods')
  await expect(methods.getByText('Not linked')).toBeVisible()
  await methods.getByRole('button', { name: 'Link Acme' }).click()
  await signInAndConsent(page, user)

  await expect(page).toHaveURL(/\/account$/)
  await expect(methods.getByText('Acme is linked to your account.')).toBeVisible()
  await expect(methods.getByText(/^Linked on /)).toBeVisible()
  expect((await waitForMail(email, methodsChanged)).text).toContain('Acme was linked to your account')

  await methods.getByRole('button', { name: 'Unlink Acme' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Unlink Acme?' })
  await expect(dialog).toContainText('You will no longer be able to sign in with Acme. You can link it again later.')
  await dialog.getByRole('button', { name: 'Unlink', exact: true }).click()
  await expect(dialog).toBeHidden()
  await expect(methods.getByText('Acme is unlinked.')).toBeVisible()
  await expect(methods.getByRole('button', { name: 'Link Acme' })).toBeVisible()
  expect((await waitForMail(email, methodsChanged, 2)).text).toContain('Acme was unlinked from your account')
  expect(await signedInEmail(page.request)).toBe(email)
})

test('the only way to sign in cannot be unlinked: the button is off and the server refuses', async ({
  page,
  baseURL,
}) => {
  const user = await newProviderUser('Oscar Only')
  await leaveForProvider(page, '/account')
  await signInAndConsent(page, user)
  await expect(page).toHaveURL(/\/account$/)
  const methods = section(page, 'Sign-in methods')
  const unlink = methods.getByRole('button', { name: 'Unlink Acme' })
  await expect(unlink).toBeDisabled()
  await expect(unlink).toHaveAccessibleDescription('This is your only way to sign in.')

  const listed = (await (await page.request.get('/api/me/sign-in-methods')).json()) as SignInMethods
  expect(listed).toMatchObject({ password: false, passkeys: [], count: 1 })
  const accountId = listed.providers.find((provider) => provider.id === 'oidc')?.linked[0]?.id
  expect(accountId).toBeDefined()
  const refused = await page.request.post('/api/auth/unlink-account', {
    headers: { Origin: baseURL ?? '' },
    data: { accountId },
  })
  expect(refused.status()).toBe(409)
  await page.reload()
  await expect(methods.getByRole('button', { name: 'Unlink Acme' })).toBeDisabled()
  expect(await signedInEmail(page.request)).toBe(user.email)
})

for (const mode of colourModes) {
  test(`a provider failure on /login and the Sign-in methods section pass axe in both languages, ${mode} mode`, async ({
    page,
    context,
    browser,
    baseURL,
  }) => {
    // A sign-in at the provider, then four pages and four axe runs: 30 s was its whole margin on a
    // slow machine (it timed out at 31 s once).
    test.setTimeout(90_000)
    // An account with Acme linked, whose signed-in state the other browsers take.
    const user = await newProviderUser(`Axel ${mode === 'light' ? 'Light' : 'Dark'}`)
    await leaveForProvider(page, '/account')
    await signInAndConsent(page, user)
    await expect(page).toHaveURL(/\/account$/)
    const signedIn = await context.storageState()

    const report = new ViolationReport()
    for (const lang of interfaceLanguages) {
      const visitor = await newBrowsingContext(browser, baseURL)
      const member = await browser.newContext({ baseURL, userAgent: desktopUserAgent, storageState: signedIn })
      try {
        await prefer(visitor, mode, lang)
        await prefer(member, mode, lang)
        const login = await visitor.newPage()
        await login.goto('/login?error=invalid_code')
        await settled(login, mode, lang)
        await expect(login.getByRole('alert')).toHaveText(lang === 'en' ? says.unavailable : ru.providerErrors.unavailable)
        await report.check(login, `/login?error=invalid_code (${lang}, ${mode})`)

        const account = await member.newPage()
        await account.goto('/account')
        await settled(account, mode, lang)
        const methods = section(account, lang === 'en' ? 'Sign-in methods' : ru.account.signInMethodsTitle)
        const unlink = lang === 'en' ? 'Unlink Acme' : ru.account.unlinkProvider.replace('{name}', 'Acme')
        await expect(methods.getByRole('button', { name: unlink })).toBeDisabled()
        await report.check(account, `/account sign-in methods (${lang}, ${mode})`)
      } finally {
        await visitor.close()
        await member.close()
      }
    }
    report.expectNone()
  })
}
