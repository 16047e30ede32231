import { expect, open, test } from './helpers/fixtures'

// The reference page is served whole by the app (no CDN): it must render offline, under the app's
// Content-Security-Policy, without a console error (the fixtures fail the test otherwise).
test.describe('the API reference page', () => {
  test('renders the document and runs a request from the page', async ({ page }) => {
    await open(page, '/api/docs')
    await expect(page).toHaveTitle('Lingua API reference')
    await expect(page.getByRole('heading', { name: /Lingua API/ })).toBeVisible()

    // The app's endpoints and better-auth's, from /api/openapi.json.
    const create = page.getByRole('button', { name: 'POST /api/language-levels Create a level' })
    await expect(create).toBeVisible()
    await expect(page.getByRole('button', { name: 'POST /api/auth/sign-in/email Sign in with email and password' })).toBeVisible()

    // An operation opens with its request body, as the server validates it.
    await create.click()
    const operation = page.locator('.opblock', { has: create })
    await expect(operation.locator('.body-param__example')).toContainText('"code": "B2"')
    await operation.getByRole('tab', { name: 'Schema' }).first().click()
    await expect(operation.getByText('[1, 16] characters').first()).toBeVisible()

    // "Try it out" calls this origin (connect-src 'self').
    const health = page.getByRole('button', { name: 'GET /api/health Is the process alive?' })
    await health.click()
    const healthBlock = page.locator('.opblock', { has: health })
    await healthBlock.getByRole('button', { name: 'Try it out' }).click()
    await healthBlock.getByRole('button', { name: 'Execute' }).click()
    await expect(healthBlock.getByRole('heading', { name: 'Server response' })).toBeVisible()
    const served = healthBlock.locator('.live-responses-table')
    await expect(served.getByRole('cell', { name: '200', exact: true })).toBeVisible()
    await expect(served.getByText('"status": "ok"')).toBeVisible()
  })
})
