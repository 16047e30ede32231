import type { Page } from '@playwright/test'
import {
  confirmPath,
  password,
  signedInAs,
  subjects,
  uniqueEmail,
  userMenuButton,
  waitForMail,
} from './helpers/accounts'
import { accessibilityViolations, expect, failedResource, languageSelect, mainHeading, test } from './helpers/fixtures'

// The account page: every part, with the emails the changes send.

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true })

test.describe('the account page', () => {
  test('shows every part and passes axe in light and dark mode', async ({ page, context, baseURL }) => {
    await signedInAs(context, baseURL ?? '', 'Axe Tester')
    await page.goto('/account')
    for (const name of ['Profile', 'Email', 'Password', 'Two-step verification', 'Active sessions', 'Your data', 'Delete account']) {
      await expect(section(page, name)).toBeVisible()
    }
    await expect(section(page, 'Active sessions').getByText('This device')).toBeVisible()
    expect(await accessibilityViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'dark' })
    // Checked once the colours have changed (the check waits for the transitions to end).
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    expect(await accessibilityViolations(page)).toEqual([])
  })

  test('the name is saved, and the header follows', async ({ page, context, baseURL }) => {
    await signedInAs(context, baseURL ?? '', 'Old Name')
    await page.goto('/account')
    const profile = section(page, 'Profile')
    await profile.getByLabel('Name', { exact: true }).fill('New Name')
    await profile.getByRole('button', { name: 'Save' }).click()
    await expect(userMenuButton(page, 'New Name')).toBeVisible()
    await page.reload()
    await expect(section(page, 'Profile').getByLabel('Name', { exact: true })).toHaveValue('New Name')
  })

  test('email change is confirmed by the link sent to the new address', async ({ page, context, baseURL }) => {
    const oldEmail = await signedInAs(context, baseURL ?? '', 'Moving User')
    const newEmail = uniqueEmail('Moved')
    await page.goto('/account')
    const email = section(page, 'Email')
    await expect(email.getByText(`You sign in with ${oldEmail}.`)).toBeVisible()
    await email.getByLabel('New email').fill(newEmail)
    await email.getByRole('button', { name: 'Change email' }).click()
    await expect(email.getByText(`We sent a link to ${newEmail}.`, { exact: false })).toBeVisible()

    const link = confirmPath(await waitForMail(newEmail, subjects.changeEmail))
    expect(link).toContain('type=email_change')
    await page.goto(link)
    await expect(page).toHaveURL(/\/account$/)
    await expect(section(page, 'Email').getByText(`You sign in with ${newEmail}.`)).toBeVisible()
  })

  test('password change needs the current password and signs out the other devices', async ({
    page,
    context,
    browser,
    baseURL,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(failedResource(401))
    const email = await signedInAs(context, baseURL ?? '', 'Careful User')
    const other = await browser.newContext({ baseURL })
    const signIn = await other.request.post('/api/auth/sign-in/email', {
      headers: { Origin: baseURL ?? '' },
      data: { email, password },
    })
    expect(signIn.status()).toBe(200)

    await page.goto('/account')
    const part = section(page, 'Password')
    await part.getByLabel('Current password').fill('not my password')
    await part.getByLabel('New password').fill('brand new passphrase')
    await part.getByLabel('Confirm password').fill('brand new passphrase')
    await part.getByRole('button', { name: 'Change password' }).click()
    await expect(part.getByText('Wrong password.')).toBeVisible()

    await part.getByLabel('Current password').fill(password)
    await part.getByRole('button', { name: 'Change password' }).click()
    await expect(part.getByText('Password changed.', { exact: false })).toBeVisible()
    const session = await other.request.get('/api/auth/get-session?disableCookieCache=true')
    expect(await session.json()).toBeNull()
    await other.close()
  })

  test('another device can be signed out, then every device', async ({ page, context, browser, baseURL }) => {
    const email = await signedInAs(context, baseURL ?? '', 'Many Devices')
    const other = await browser.newContext({ baseURL, userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0' })
    await other.request.post('/api/auth/sign-in/email', {
      headers: { Origin: baseURL ?? '' },
      data: { email, password },
    })
    await page.goto('/account')
    const sessions = section(page, 'Active sessions')
    await sessions.getByRole('button', { name: 'Sign out Firefox · Windows' }).click()
    await expect(page.getByText('That device is signed out.', { exact: true })).toBeVisible()
    await expect(sessions.getByText('Firefox · Windows')).toHaveCount(0)
    const session = await other.request.get('/api/auth/get-session?disableCookieCache=true')
    expect(await session.json()).toBeNull()
    await other.close()

    await sessions.getByRole('button', { name: 'Sign out everywhere' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await page.goto('/dashboard')
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/)
  })

  test('deleting the account takes the email typed out and the password', async ({
    page,
    context,
    baseURL,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(failedResource(401))
    const email = await signedInAs(context, baseURL ?? '', 'Leaving User')
    await page.goto('/account')
    const part = section(page, 'Delete account')
    await part.getByRole('button', { name: 'Delete account…' }).click()
    const confirm = part.getByRole('button', { name: 'Delete my account' })
    await expect(confirm).toBeDisabled()
    await part.getByLabel(`Type ${email} to confirm`).fill(email)
    await part.getByLabel('Password', { exact: true }).fill(password)
    await expect(confirm).toBeEnabled()
    await confirm.click()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByText('Your account was deleted.', { exact: true })).toBeVisible()

    await page.goto('/login')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page.getByRole('alert')).toHaveText('Wrong email or password.')
    await expect(mainHeading(page)).toHaveText('Sign in')
  })
})

test('in Russian, the pages and the emails speak Russian', async ({ page }) => {
  await page.goto('/register')
  await languageSelect(page).selectOption({ label: 'Русский' })
  await expect(mainHeading(page)).toHaveText('Регистрация')
  const email = uniqueEmail('Russian')
  await page.getByLabel('Имя').fill('Лев Толстой')
  await page.getByLabel('Почта').fill(email)
  await page.getByLabel('Пароль', { exact: true }).fill(password)
  await page.getByLabel('Повторите пароль').fill(password)
  await page.getByRole('button', { name: 'Создать аккаунт' }).click()
  await expect(mainHeading(page)).toHaveText('Проверьте почту')
  expect(await accessibilityViolations(page)).toEqual([])
  await waitForMail(email, /^Подтвердите адрес/)
})
