import { signedInAs, userMenuButton } from './helpers/accounts'
import { accessibilityViolations, expect, failedResource, test } from './helpers/fixtures'

// Signed-in journeys with an account made through the API (the pages have their own spec).

test.describe('a signed-in learner', () => {
  test('sees the dashboard greeting and their menu; guest pages send them to the dashboard', async ({
    page,
    context,
    baseURL,
  }) => {
    await signedInAs(context, baseURL ?? '', 'Ada Lovelace')
    await page.goto('/dashboard')
    await expect(page.getByRole('heading', { level: 1, name: 'Hello, Ada Lovelace!' })).toBeVisible()
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toHaveCount(0)

    await userMenuButton(page, 'Ada Lovelace').click()
    await expect(page.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Account', exact: true })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible()
    expect(await accessibilityViolations(page)).toEqual([])

    await page.goto('/login')
    await expect(page).toHaveURL(/\/dashboard$/)
  })

  test('signs out from the menu: back to the visitor header, guarded pages redirect again', async ({
    page,
    context,
    baseURL,
  }) => {
    await signedInAs(context, baseURL ?? '', 'Grace Hopper')
    await page.goto('/dashboard')
    await userMenuButton(page, 'Grace Hopper').click()
    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible()
    await page.goto('/dashboard')
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/)
  })

  test('signing out in one tab signs out the others, which leave their protected page', async ({
    context,
    baseURL,
  }) => {
    await signedInAs(context, baseURL ?? '', 'Alan Turing')
    const first = await context.newPage()
    const second = await context.newPage()
    await first.goto('/about')
    await second.goto('/dashboard')
    await expect(second.getByRole('heading', { level: 1, name: 'Hello, Alan Turing!' })).toBeVisible()

    await userMenuButton(first, 'Alan Turing').click()
    await first.getByRole('button', { name: 'Sign out' }).click()

    await expect(second).toHaveURL(/\/login\?redirect=%2Fdashboard$/)
    await expect(second.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible()
  })

  test('a signed-in non-admin gets the 403 screen on admin pages', async ({
    page,
    context,
    baseURL,
    diagnostics,
  }) => {
    // The router logs the error its guard threw.
    diagnostics.allowConsoleError(/^HttpError: Administrators only/)
    // The first account to verify becomes admin: make sure it is not the one tested.
    await signedInAs(context, baseURL ?? '', 'First Account')
    await signedInAs(context, baseURL ?? '', 'Barbara Liskov')
    await page.goto('/admin/language-levels')
    await expect(page.getByRole('heading', { name: 'Something went wrong.' })).toBeVisible()
    await expect(page.getByTestId('error-status')).toHaveText('403')
    await expect(page.getByTestId('error-message')).toHaveText('Administrators only')
  })

  test('the session read is retried when the service is briefly unavailable', async ({
    page,
    context,
    baseURL,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(failedResource(503))
    await signedInAs(context, baseURL ?? '', 'Patient User')
    let refusals = 0
    await page.route('**/api/auth/get-session*', async (route) => {
      if (refusals < 2) {
        refusals++
        await route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"service_unavailable","message":"x"}}' })
      } else {
        await route.continue()
      }
    })
    await page.goto('/dashboard')
    await expect(page.getByRole('heading', { level: 1, name: 'Hello, Patient User!' })).toBeVisible({ timeout: 10_000 })
    expect(refusals).toBe(2)
  })

  test('an open tab notices within five minutes that its session was revoked elsewhere', async ({
    page,
    context,
    baseURL,
    diagnostics,
  }) => {
    // The dashboard's reads that run at that moment (the profile, the self-assessment) are refused
    // with 401 before the page goes to the sign-in page: the browser logs each refused load.
    diagnostics.allowConsoleError(failedResource(401))
    await page.clock.install()
    await signedInAs(context, baseURL ?? '', 'Revoked User')
    await page.goto('/dashboard')
    await expect(page.getByRole('heading', { level: 1, name: 'Hello, Revoked User!' })).toBeVisible()
    // "Sign out everywhere" from another device ends this session too.
    const revoked = await context.request.post('/api/auth/revoke-sessions', { headers: { Origin: baseURL ?? '' }, data: {} })
    expect(revoked.status()).toBe(200)
    await page.clock.fastForward('05:01')
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/)
  })
})
