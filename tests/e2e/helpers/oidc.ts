import type { Page, Route } from '@playwright/test'
import { expect } from './fixtures'

// The browser tests' OpenID provider "Acme" (tests/e2e/helpers/oidc-provider.ts): its control server, where
// a test adds its own provider users, reads what the app sent and makes the provider misbehave;
// and the provider's own login and consent pages, driven as a person would.

const controlURL = process.env.E2E_OIDC_CONTROL_URL ?? 'http://127.0.0.1:4028'

/** A user of the provider (`POST /users`); its `sub` is its login. */
export interface ProviderUser {
  login: string
  password: string
  email?: string
  email_verified?: boolean
  name?: string
}

/** The parameters the provider recorded, first value of each (`GET /requests`). */
export interface ProviderRequests {
  authorization: { at: string; params: Record<string, string> }[]
  token: { at: string; params: Record<string, string>; status: number; error?: string }[]
}

async function control(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Response> {
  const response = await fetch(`${controlURL}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  })
  expect(response.ok, `${method} ${path} at the provider's control server`).toBe(true)
  return response
}

/** Adds the user to the provider (or replaces the one with its login). */
async function addProviderUser(user: ProviderUser): Promise<ProviderUser> {
  await control('POST', '/users', user)
  return user
}

/**
 * A provider user no other test has (unique login, and email unless given): single sign-on and
 * the accounts the app makes never mix between tests.
 */
export async function newProviderUser(
  name: string,
  { email, verified = true }: { email?: string; verified?: boolean } = {},
): Promise<Required<ProviderUser>> {
  const login = `${name.split(' ')[0]?.toLowerCase() ?? 'user'}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`
  const user = {
    login,
    password: `${login}-password`,
    email: email ?? `${login}@provider.test`,
    email_verified: verified,
    name,
  }
  await addProviderUser(user)
  return user
}

export async function providerRequests(): Promise<ProviderRequests> {
  return (await (await control('GET', '/requests')).json()) as ProviderRequests
}

export async function clearProviderRequests() {
  await control('DELETE', '/requests')
}

/** The next ID token carries these claims (`null` removes one), validly re-signed. */
export async function tamperNextIdToken(claims: Record<string, unknown>) {
  await control('POST', '/tamper', claims)
}

async function cancelTamper() {
  await control('DELETE', '/tamper')
}

/** The provider's port refuses connections until `startProvider()`. */
export async function stopProvider() {
  await control('POST', '/stop')
}

export async function startProvider() {
  await control('POST', '/start')
}

/** Every answer of the provider waits `ms` first (0: back to normal). */
export async function slowProvider(ms: number) {
  await control('POST', '/slow', { ms })
}

async function providerSingleSignOn(enabled: boolean) {
  await control('POST', '/sso', { enabled })
}

/** Puts the provider back as every test expects it: running, quick, honest, single sign-on on. */
export async function restoreProvider() {
  await startProvider()
  await slowProvider(0)
  await cancelTamper()
  await providerSingleSignOn(true)
}

/** The provider's pages (oidc-provider's development pages). */
export const providerPage = {
  login: (page: Page) => page.getByPlaceholder('Enter any login'),
  password: (page: Page) => page.getByPlaceholder('and password'),
  signIn: (page: Page) => page.getByRole('button', { name: 'Sign-in' }),
  consent: (page: Page) => page.getByRole('button', { name: 'Continue' }),
  cancel: (page: Page) => page.getByRole('link', { name: '[ Cancel ]' }),
}

/** On the provider's login page: signs in as `user`, and waits for its consent page. */
export async function signInAtProvider(page: Page, user: ProviderUser) {
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//)
  await providerPage.login(page).fill(user.login)
  await providerPage.password(page).fill(user.password)
  await providerPage.signIn(page).click()
  await expect(providerPage.consent(page)).toBeVisible()
}

/** From the provider's login page: signs in and consents; the provider then sends the browser back. */
export async function signInAndConsent(page: Page, user: ProviderUser) {
  await signInAtProvider(page, user)
  await providerPage.consent(page).click()
}

/** The app's callback, where the provider sends the browser back. */
const callbackPath = '/api/auth/callback/oidc'

const heldPage = '<!DOCTYPE html><html lang="en"><head><link rel="icon" href="data:,"><title>Held</title></head><body>Held by the test</body></html>'

/**
 * The provider's pages a browser is sent to (the authorization request and its interactions), and
 * the app's "Continue with" form, which the app answers with a redirect to the provider.
 */
const providerNavigation = /^http:\/\/(127\.0\.0\.1:\d+\/(auth|interaction)\b|localhost:\d+\/api\/sign-in\/provider$)/

/**
 * Holds the browser's way back to the app: the next time the provider would send it to the app's
 * callback, the test gets the callback URL (code and state) and the browser a blank page instead,
 * the app seeing nothing. Armed just before the step after which the provider redirects at once
 * (pressing "Continue" on its consent page, or a new sign-in it remembers). The provider's
 * redirects are followed here one by one (the browser's own are out of reach of `page.route`),
 * with the browser's cookies.
 */
export async function holdCallback(page: Page): Promise<() => Promise<URL>> {
  let resolve: (url: URL) => void = () => undefined
  let reject: (error: unknown) => void = () => undefined
  const held = new Promise<URL>((done, fail) => {
    resolve = done
    reject = fail
  })
  let used = false
  const handler = async (route: Route) => {
    const request = route.request()
    if (used || !request.isNavigationRequest()) return route.fallback()
    used = true
    try {
      let response = await route.fetch({ maxRedirects: 0 })
      let url = request.url()
      for (let hop = 0; hop < 10; hop += 1) {
        const location = response.headers().location
        if (response.status() < 300 || response.status() >= 400 || !location) {
          throw new Error(`the provider answered ${response.status()} at ${url}, not a redirect back to the app`)
        }
        url = new URL(location, url).href
        if (new URL(url).pathname === callbackPath) {
          resolve(new URL(url))
          // No favicon request to the provider, which the test may be about to stop.
          await route.fulfill({ status: 200, contentType: 'text/html', body: heldPage })
          return
        }
        response = await page.request.get(url, { maxRedirects: 0 })
      }
      throw new Error('the provider redirected more than 10 times')
    } catch (error) {
      reject(error)
      await route.abort()
    }
  }
  await page.route(providerNavigation, handler)
  return async () => {
    try {
      return await held
    } finally {
      await page.unroute(providerNavigation, handler)
    }
  }
}
