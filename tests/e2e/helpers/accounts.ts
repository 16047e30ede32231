import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'
import type { BrowserContext, Page } from '@playwright/test'
import { expect, mainHeading } from './fixtures'

/** An email as the test mail server received it (tests/e2e/helpers/mailbox.ts). */
export interface ReceivedMail {
  envelope: { from?: string; to: string[] }
  from: string
  to: string
  subject: string
  text?: string
  html?: string
}

const mailboxURL = `http://127.0.0.1:${process.env.E2E_MAILBOX_PORT ?? 4026}`

/** A strong password (zxcvbn ≥ 2) used by the journeys. */
export const password = 'correct horse battery'

/** An address no other test uses. */
export function uniqueEmail(name: string): string {
  const first = name.split(' ')[0]?.toLowerCase() ?? 'user'
  return `${first}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
}

/** Every email that went to `to`, oldest first. */
export async function mailsTo(to: string): Promise<ReceivedMail[]> {
  const response = await fetch(`${mailboxURL}/messages?${new URLSearchParams({ to }).toString()}`)
  return (await response.json()) as ReceivedMail[]
}

/** The `count`-th email to `to` whose subject matches, waiting for it to arrive. */
export async function waitForMail(to: string, subject: RegExp, count = 1): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined
  await expect
    .poll(
      async () => {
        found = (await mailsTo(to)).filter((mail) => subject.test(mail.subject))[count - 1]
        return found !== undefined
      },
      { message: `email ${count} to ${to} with subject ${subject}`, timeout: 10_000 },
    )
    .toBe(true)
  return found as ReceivedMail
}

/** The `/confirm?…` link of an email, as a path of the app. */
export function confirmPath(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+?\/confirm\?[^\s"<>]+/.exec(mail.text ?? '')
  expect(match, `a /confirm link in "${mail.subject}"`).not.toBeNull()
  const url = new URL(match?.[0] ?? '')
  return `${url.pathname}${url.search}`
}

/** The 6-digit code of a sign-in code email. */
export function codeIn(mail: ReceivedMail): string {
  const match = /\b(\d{6})\b/.exec(mail.text ?? '')
  expect(match, `a code in "${mail.subject}"`).not.toBeNull()
  return match?.[1] ?? ''
}

/** The code an authenticator app shows now for a `otpauth://` key. */
export function authenticatorCode(secret: string): Promise<string> {
  return createOTP(new TextDecoder().decode(base32.decode(secret))).totp()
}

export const subjects = {
  confirm: /^Confirm your email address/,
  reset: /^Reset your .* password/,
  code: /sign-in code/,
  changeEmail: /^Confirm your email change/,
}

/** A new, verified account made through the API; the context is signed in as it afterwards. */
export async function signedInAs(context: BrowserContext, baseURL: string, name: string): Promise<string> {
  const email = uniqueEmail(name)
  const signUp = await context.request.post('/api/auth/sign-up/email', {
    headers: { Origin: baseURL },
    data: { name, email, password },
  })
  expect(signUp.status()).toBe(200)
  const link = new URL(confirmPath(await waitForMail(email, subjects.confirm)), baseURL)
  const verified = await context.request.get(
    `/api/auth/verify-email?token=${encodeURIComponent(link.searchParams.get('token') ?? '')}`,
  )
  expect(verified.status()).toBe(200)
  return email
}

export const userMenuButton = (page: Page, name: string) =>
  page.getByRole('banner').getByRole('button', { name, exact: true })

/** Signs out through the header's user menu. */
export async function signOutFromMenu(page: Page, name: string) {
  await userMenuButton(page, name).click()
  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible()
}

/** Fills and sends the registration form. */
export async function register(page: Page, name: string, email: string, pass = password) {
  await page.goto('/register')
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(pass)
  await page.getByLabel('Confirm password').fill(pass)
  await page.getByRole('button', { name: 'Create account' }).click()
}

/** Registers through the page and opens the emailed link: signed in, on the dashboard. */
export async function registerAndConfirm(page: Page, name: string): Promise<string> {
  const email = uniqueEmail(name)
  await register(page, name, email)
  await expect(mainHeading(page)).toHaveText('Check your email')
  await page.goto(confirmPath(await waitForMail(email, subjects.confirm)))
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(mainHeading(page)).toHaveText(`Hello, ${name}!`)
  return email
}

/** Fills and sends the password sign-in form of the page. */
export async function signInWithPassword(page: Page, email: string, pass = password) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(pass)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/**
 * Turns two-step verification on in the account page's section, with the key of its QR code;
 * `whileShown` runs while the key and backup codes show. Resolves to the key and backup codes.
 */
export async function turnOnTwoStep(page: Page, whileShown?: () => Promise<void>) {
  const section = page.getByRole('region', { name: 'Two-step verification' })
  await section.getByRole('button', { name: 'Turn on' }).click()
  await section.getByLabel('Password', { exact: true }).fill(password)
  await section.getByRole('button', { name: 'Turn on' }).click()
  await expect(section.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
  await whileShown?.()
  const secret = (await section.locator('code').textContent()) ?? ''
  const backupCodes = await section.getByRole('list', { name: 'Backup codes' }).getByRole('listitem').allTextContents()
  expect(backupCodes).toHaveLength(10)
  await section.getByLabel('Authentication code').fill(await authenticatorCode(secret))
  await section.getByRole('button', { name: 'Verify and turn on' }).click()
  await expect(section.getByText('On: signing in asks for a code')).toBeVisible()
  return { secret, backupCodes }
}
