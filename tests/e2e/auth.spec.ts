import {
  authenticatorCode,
  codeIn,
  confirmPath,
  mailsTo,
  register,
  registerAndConfirm,
  signInWithPassword,
  signOutFromMenu,
  subjects,
  turnOnTwoStep,
  uniqueEmail,
  userMenuButton,
  waitForMail,
} from './helpers/accounts'
import { accessibilityViolations, expect, failedResource, mainHeading, test } from './helpers/fixtures'

// Every sign-in journey through the pages, with the emails received by the test SMTP server.

test.describe('registration', () => {
  test('register → check your email → the emailed link signs in → dashboard', async ({ page }) => {
    await page.goto('/register')
    expect(await accessibilityViolations(page)).toEqual([])
    const email = await registerAndConfirm(page, 'Ada Lovelace')

    const [mail] = await mailsTo(email)
    expect(mail?.from).toContain('no-reply@lingua.test')
    expect(mail?.text).toContain('Lingua')
    expect(mail?.text).toMatch(/24 hours/)
    await expect(userMenuButton(page, 'Ada Lovelace')).toBeVisible()
  })

  test('the form validates before sending, and the server refuses a weak password', async ({
    page,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(failedResource(400))
    await page.goto('/register')
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByText('Required')).toHaveCount(1)
    await expect(page.getByText('Enter a valid email address')).toBeVisible()
    await expect(page.getByText('At least 8 characters')).toBeVisible()

    await page.getByLabel('Name').fill('Weak Password')
    await page.getByLabel('Email').fill(uniqueEmail('weak'))
    await page.getByLabel('Password', { exact: true }).fill('password1')
    await page.getByLabel('Confirm password').fill('password2')
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByText('The passwords do not match')).toBeVisible()

    await page.getByLabel('Confirm password').fill('password1')
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByText('This password is too easy to guess.', { exact: false })).toBeVisible()
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  })

  test('"check your email" offers to send again after a cool-down', async ({ page, diagnostics }) => {
    // The server's own minute has not passed: it answers 429, which the browser logs.
    diagnostics.allowConsoleError(failedResource(429))
    await page.clock.install()
    const email = uniqueEmail('Resend')
    await register(page, 'Resend Me', email)
    await expect(mainHeading(page)).toHaveText('Check your email')
    await expect(page.getByText(email)).toBeVisible()
    const again = page.getByRole('button', { name: /^Send again/ })
    await expect(again).toBeDisabled()
    await expect(again).toHaveText(/Send again in \d+ s/)
    expect(await accessibilityViolations(page)).toEqual([])

    // The page's clock runs ahead, the server's does not: it says how long to wait, rather than
    // answering as if it had sent the email.
    await page.clock.fastForward(61_000)
    await expect(again).toBeEnabled()
    await again.click()
    await expect(page.getByText(/^We emailed this address moments ago\. You can ask again in \d+ seconds?\.$/)).toBeVisible()
  })

  test('a taken email answers like a new one; its owner is told by email', async ({ page }) => {
    const email = await registerAndConfirm(page, 'Owner Account')
    await signOutFromMenu(page, 'Owner Account')
    await register(page, 'Somebody Else', email, 'another strong passphrase')
    await expect(mainHeading(page)).toHaveText('Check your email')
    await waitForMail(email, /already have/)
  })
})

test.describe('signing in', () => {
  test('with a password, honouring ?redirect=; a wrong password is said plainly', async ({
    page,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(failedResource(401))
    const email = await registerAndConfirm(page, 'Grace Hopper')
    await signOutFromMenu(page, 'Grace Hopper')

    await page.goto('/account')
    await expect(page).toHaveURL(/\/login\?redirect=%2Faccount$/)
    expect(await accessibilityViolations(page)).toEqual([])
    await signInWithPassword(page, email, 'not the password')
    await expect(page.getByRole('alert')).toHaveText('Wrong email or password.')

    await signInWithPassword(page, email)
    await expect(page).toHaveURL(/\/account$/)
    await expect(mainHeading(page)).toHaveText('Account')
  })

  test('an open redirect is never followed', async ({ page, baseURL }) => {
    const email = await registerAndConfirm(page, 'Redirect Tester')
    await signOutFromMenu(page, 'Redirect Tester')
    await page.goto('/login?redirect=//evil.example/path')
    await signInWithPassword(page, email)
    await expect(page).toHaveURL(new URL('/dashboard', baseURL).href)
  })

  test('with an emailed code', async ({ page, diagnostics }) => {
    diagnostics.allowConsoleError(failedResource(400))
    const email = await registerAndConfirm(page, 'Code User')
    await signOutFromMenu(page, 'Code User')

    await page.goto('/login')
    await page.getByRole('link', { name: 'Sign in with a code' }).click()
    await expect(mainHeading(page)).toHaveText('Sign in with a code')
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send code' }).click()
    await expect(page.getByText(`If an account uses ${email}`)).toBeVisible()
    expect(await accessibilityViolations(page)).toEqual([])

    await page.getByLabel('Code').fill('000000')
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page.getByRole('alert')).toContainText('invalid or has expired')

    await page.getByLabel('Code').fill(codeIn(await waitForMail(email, subjects.code)))
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page).toHaveURL(/\/dashboard$/)
  })

  test('an unknown email gets the same answer for a code and a recovery link', async ({ page }) => {
    const email = uniqueEmail('Nobody')
    await page.goto('/login?method=code')
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send code' }).click()
    await expect(page.getByText(`If an account uses ${email}`)).toBeVisible()

    await page.goto('/login?method=recovery')
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send link' }).click()
    await expect(mainHeading(page)).toHaveText('Check your email')
    expect(await mailsTo(email)).toEqual([])
  })
})

test.describe('password recovery', () => {
  test('"Forgot password?" → emailed link → new password → sign in with it; the link works once', async ({
    page,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(failedResource(400))
    const email = await registerAndConfirm(page, 'Forgetful User')
    await signOutFromMenu(page, 'Forgetful User')

    await page.goto('/login')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await expect(mainHeading(page)).toHaveText('Reset your password')
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send link' }).click()
    await expect(page.getByText(`If an account uses ${email}`)).toBeVisible()

    const link = confirmPath(await waitForMail(email, subjects.reset))
    expect(link).toContain('type=recovery')
    await page.goto(link)
    await expect(mainHeading(page)).toHaveText('Choose a new password')
    expect(await accessibilityViolations(page)).toEqual([])
    const newPassword = 'purple elephant seventeen'
    await page.getByLabel('New password').fill(newPassword)
    await page.getByLabel('Confirm password').fill(newPassword)
    await page.getByRole('button', { name: 'Set new password' }).click()
    await expect(mainHeading(page)).toHaveText('Password changed')
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click()
    await signInWithPassword(page, email, newPassword)
    await expect(page).toHaveURL(/\/dashboard$/)
    await signOutFromMenu(page, 'Forgetful User')

    await page.goto(link)
    await page.getByLabel('New password').fill('another fresh passphrase')
    await page.getByLabel('Confirm password').fill('another fresh passphrase')
    await page.getByRole('button', { name: 'Set new password' }).click()
    await expect(mainHeading(page)).toHaveText('This link does not work')
    await expect(page.getByRole('button', { name: 'Send a new link' })).toBeVisible()
  })
})

test.describe('the /confirm page', () => {
  test('without a token explains what to do', async ({ page }) => {
    await page.goto('/confirm')
    await expect(mainHeading(page)).toHaveText('Open the link from your email')
    await expect(page.getByRole('main').getByRole('link', { name: 'Forgot password?' })).toBeVisible()
    expect(await accessibilityViolations(page)).toEqual([])
  })

  test('an invalid link offers a new one by email', async ({ page, diagnostics }) => {
    diagnostics.allowConsoleError(failedResource(400))
    await page.goto('/confirm?type=signup&token=not-a-token')
    await expect(mainHeading(page)).toHaveText('This link does not work')
    expect(await accessibilityViolations(page)).toEqual([])
    const email = uniqueEmail('Unconfirmed')
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send a new link' }).click()
    await expect(mainHeading(page)).toHaveText('Check your email')
  })
})

test.describe('two-step verification', () => {
  test('enrol with the QR code key → password and code sign-ins both ask for it; a backup code works', async ({
    page,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(failedResource(401))
    // The wrong code tried on purpose.
    diagnostics.allowConsoleError(failedResource(400))
    const email = await registerAndConfirm(page, 'Secure User')
    await page.goto('/account')
    const { secret, backupCodes } = await turnOnTwoStep(page, async () => expect(await accessibilityViolations(page)).toEqual([]))

    await signOutFromMenu(page, 'Secure User')
    await page.goto('/login')
    await signInWithPassword(page, email)
    await expect(mainHeading(page)).toHaveText('Two-step verification')
    expect(await accessibilityViolations(page)).toEqual([])
    // A wrong code is said on the field, and the step stays (not "your session has ended").
    const current = await authenticatorCode(secret)
    await page.getByLabel('Authentication code').fill(String((Number(current) + 1) % 1_000_000).padStart(6, '0'))
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page.getByLabel('Authentication code')).toHaveAccessibleDescription(
      /This code is not right\. Enter the current code from the app, or a backup code\./,
    )
    await expect(mainHeading(page)).toHaveText('Two-step verification')
    await page.getByLabel('Authentication code').fill(await authenticatorCode(secret))
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page).toHaveURL(/\/dashboard$/)
    await signOutFromMenu(page, 'Secure User')

    await page.goto('/login?method=code')
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send code' }).click()
    await page.getByLabel('Code').fill(codeIn(await waitForMail(email, subjects.code)))
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(mainHeading(page)).toHaveText('Two-step verification')
    await page.getByLabel('Authentication code').fill(backupCodes[0] ?? '')
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page).toHaveURL(/\/dashboard$/)
  })
})
