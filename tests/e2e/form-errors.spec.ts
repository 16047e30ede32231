import type { Locator, Page } from '@playwright/test'
import { expectFieldError } from './helpers/a11y'
import { authenticatorCode, password, signOutFromMenu, signedInAs, uniqueEmail } from './helpers/accounts'
import { expect, failedResource, mainHeading, open, test } from './helpers/fixtures'

// Every form refuses a wrong value where the user sees it and where a screen reader hears it: the
// field is aria-invalid, its aria-describedby names the message, the message is a role=alert (read
// out as it appears) and focus goes to the first refused field. Errors that belong to no one field
// (wrong email or password: no hint which) are one role=alert above the button. The admin's level
// form is in accessibility-admin.spec.ts (the `admin` project).

const field = (scope: Page | Locator, name: string) => scope.getByRole('textbox', { name, exact: true })

async function expectFormAlert(scope: Page | Locator, message: string) {
  await expect(scope.getByRole('alert').filter({ hasText: message })).toBeVisible()
}

test.describe('signed out', () => {
  test('register: empty, mismatched, then a weak password the server refuses', async ({ page, diagnostics }) => {
    diagnostics.allowConsoleError(failedResource(400))
    await open(page, '/register')
    const name = field(page, 'Name')
    const email = field(page, 'Email')
    const newPassword = field(page, 'Password')
    const confirm = field(page, 'Confirm password')
    const submit = page.getByRole('button', { name: 'Create account' })

    await submit.click()
    await expectFieldError(name, 'Required')
    await expectFieldError(email, 'Enter a valid email address')
    await expectFieldError(newPassword, 'At least 8 characters')
    await expect(name).toBeFocused()
    // The hint stays in the description beside the error.
    await expect(newPassword).toHaveAccessibleDescription(/8 to 128 characters.*At least 8 characters/)

    await name.fill('Reg Istrant')
    await email.fill(uniqueEmail('Reg'))
    await newPassword.fill('correct horse battery')
    await confirm.fill('correct horse')
    await submit.click()
    await expectFieldError(confirm, 'The passwords do not match')
    await expect(confirm).toBeFocused()
    await expect(name).toHaveAttribute('aria-invalid', 'false')

    await newPassword.fill('password')
    await confirm.fill('password')
    await submit.click()
    await expectFieldError(newPassword, 'This password is too easy to guess. Choose a longer or less common one.')
    await expect(newPassword).toBeFocused()
  })

  test('sign in: empty fields, then wrong credentials as one alert', async ({ page, diagnostics }) => {
    diagnostics.allowConsoleError(failedResource(401))
    await open(page, '/login')
    const email = field(page, 'Email')
    const secret = field(page, 'Password')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expectFieldError(email, 'Enter a valid email address')
    await expectFieldError(secret, 'Required')
    await expect(email).toBeFocused()

    await email.fill(uniqueEmail('Nobody'))
    await secret.fill('not the password')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expectFormAlert(page.getByRole('main'), 'Wrong email or password.')
    await expect(email).toHaveAttribute('aria-invalid', 'false')
  })

  test('sign in with a code: the email, then the code', async ({ page, diagnostics }) => {
    diagnostics.allowConsoleError(failedResource(400))
    diagnostics.allowConsoleError(failedResource(401))
    await open(page, '/login?method=code')
    const email = field(page, 'Email')
    await page.getByRole('button', { name: 'Send code' }).click()
    await expectFieldError(email, 'Enter a valid email address')
    await expect(email).toBeFocused()

    await email.fill(uniqueEmail('Coder'))
    await page.getByRole('button', { name: 'Send code' }).click()
    const code = field(page, 'Code')
    await expect(code).toBeFocused()
    await code.fill('12')
    await page.getByRole('button', { name: 'Verify' }).click()
    await expectFieldError(code, 'Enter the 6 digits')
    await expect(code).toBeFocused()

    await code.fill('000000')
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page.getByRole('main').getByRole('alert')).toBeVisible()
  })

  test('password recovery: the request, then the new password', async ({ page }) => {
    await open(page, '/login?method=recovery')
    const email = field(page, 'Email')
    await page.getByRole('button', { name: 'Send link' }).click()
    await expectFieldError(email, 'Enter a valid email address')
    await expect(email).toBeFocused()

    await open(page, '/confirm?type=recovery&token=some-token')
    await expect(mainHeading(page)).toBeVisible()
    const newPassword = field(page, 'New password')
    const confirm = field(page, 'Confirm password')
    const submit = page.getByRole('main').getByRole('button', { name: 'Set new password' })
    await submit.click()
    await expectFieldError(newPassword, 'At least 8 characters')
    await expect(newPassword).toBeFocused()
    await newPassword.fill('correct horse battery')
    await confirm.fill('something else')
    await submit.click()
    await expectFieldError(confirm, 'The passwords do not match')
    await expect(confirm).toBeFocused()
  })

  test('the form demo: every field', async ({ page }) => {
    await open(page, '/fetching-post')
    const name = field(page, 'Name')
    await page.getByRole('button', { name: 'Send' }).click()
    await expectFieldError(name, 'Required')
    await expectFieldError(field(page, 'Email'), 'Enter a valid email address')
    await expectFieldError(field(page, 'Message'), 'At least 10 characters')
    await expect(name).toBeFocused()
  })
})

test.describe('signed in', () => {
  test('the dashboard profile: a target below the current level', async ({ page, context, baseURL }) => {
    await signedInAs(context, baseURL ?? '', 'Dana Dashboard')
    await open(page, '/dashboard')
    const current = page.getByRole('combobox', { name: 'Current level' })
    const target = page.getByRole('combobox', { name: 'Target level' })
    await current.selectOption({ label: 'B2 — Upper intermediate' })
    await target.selectOption({ label: 'A1 — Beginner' })
    await page.getByRole('button', { name: 'Save profile' }).click()
    await expectFieldError(target, 'The target level cannot be below the current level')
    await expect(target).toBeFocused()
    await expect(current).toHaveAttribute('aria-invalid', 'false')
  })

  test('the account page: profile, email, password and deletion', async ({ page, context, baseURL, diagnostics }) => {
    diagnostics.allowConsoleError(failedResource(400))
    diagnostics.allowConsoleError(failedResource(401))
    const email = await signedInAs(context, baseURL ?? '', 'Acca Count')
    await open(page, '/account')
    const main = page.getByRole('main')

    const profile = main.getByRole('region', { name: 'Profile' })
    await field(profile, 'Name').fill('')
    await profile.getByRole('button', { name: 'Save' }).click()
    await expectFieldError(field(profile, 'Name'), 'Required')
    await expect(field(profile, 'Name')).toBeFocused()

    const emailSection = main.getByRole('region', { name: 'Email' })
    await emailSection.getByRole('button', { name: 'Change email' }).click()
    await expectFieldError(field(emailSection, 'New email'), 'Enter a valid email address')
    await expect(field(emailSection, 'New email')).toBeFocused()

    const passwordSection = main.getByRole('region', { name: 'Password', exact: true })
    const current = field(passwordSection, 'Current password')
    await passwordSection.getByRole('button', { name: 'Change password' }).click()
    await expectFieldError(current, 'Required')
    await expectFieldError(field(passwordSection, 'New password'), 'At least 8 characters')
    await expect(current).toBeFocused()
    // The server refuses the current password: the field says so and takes focus.
    await current.fill('not my password')
    await field(passwordSection, 'New password').fill('another good passphrase')
    await field(passwordSection, 'Confirm password').fill('another good passphrase')
    await passwordSection.getByRole('button', { name: 'Change password' }).click()
    await expectFieldError(current, 'Wrong password.')
    await expect(current).toBeFocused()

    const deletion = main.getByRole('region', { name: 'Delete account' })
    await deletion.getByRole('button', { name: 'Delete account…' }).click()
    await field(deletion, `Type ${email} to confirm`).fill(email)
    const confirmPassword = field(deletion, 'Password')
    await deletion.getByRole('button', { name: 'Delete my account' }).click()
    await expectFieldError(confirmPassword, 'Required')
    await expect(confirmPassword).toBeFocused()
    await confirmPassword.fill('not my password')
    await deletion.getByRole('button', { name: 'Delete my account' }).click()
    await expectFieldError(confirmPassword, 'Wrong password.')
    await expect(confirmPassword).toBeFocused()
  })

  test('two-step verification: the password, the enrolment code and the sign-in code', async ({
    page,
    context,
    baseURL,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(failedResource(400))
    diagnostics.allowConsoleError(failedResource(401))
    const email = await signedInAs(context, baseURL ?? '', 'Tess Twofactor')
    await open(page, '/account')
    const section = page.getByRole('region', { name: 'Two-step verification' })
    await section.getByRole('button', { name: 'Turn on' }).click()
    const confirmPassword = field(section, 'Password')
    await section.getByRole('button', { name: 'Turn on' }).click()
    await expectFieldError(confirmPassword, 'Required')
    await expect(confirmPassword).toBeFocused()
    await confirmPassword.fill('not my password')
    await section.getByRole('button', { name: 'Turn on' }).click()
    await expectFieldError(confirmPassword, 'Wrong password.')
    await confirmPassword.fill(password)
    await section.getByRole('button', { name: 'Turn on' }).click()

    const code = field(section, 'Authentication code')
    await section.getByRole('button', { name: 'Verify and turn on' }).click()
    await expectFieldError(code, 'Enter the 6 digits')
    await expect(code).toBeFocused()
    const secret = (await section.locator('code').textContent()) ?? ''
    await code.fill(await authenticatorCode(secret))
    await section.getByRole('button', { name: 'Verify and turn on' }).click()
    await expect(section.getByText('On: signing in asks for a code')).toBeVisible()

    await signOutFromMenu(page, 'Tess Twofactor')
    await open(page, '/login')
    await field(page, 'Email').fill(email)
    await field(page, 'Password').fill(password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    const second = field(page, 'Authentication code')
    await expect(second).toBeFocused()
    await page.getByRole('button', { name: 'Verify' }).click()
    await expectFieldError(second, 'At least 6 characters')
    await expect(second).toBeFocused()
  })
})
