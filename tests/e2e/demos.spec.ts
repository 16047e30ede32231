import type { Page } from '@playwright/test'
import { expect, failedResource, mainHeading, open, test } from './helpers/fixtures'

// The three demo pages: reading from the API, posting a form, client state shared by two pages.

/** Counts the browser's requests to the server-time endpoint, with and without the failure switch. */
function countServerTimeRequests(page: Page) {
  const counts = { ok: 0, failing: 0 }
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname !== '/api/demo/server-time') return
    if (url.search === '?fail=true') counts.failing++
    else if (url.search === '') counts.ok++
    else throw new Error(`Unexpected request ${url.pathname}${url.search}`)
  })
  return counts
}

test.describe('fetching', () => {
  test('shows the server time and refreshes on demand', async ({ page }) => {
    const counts = countServerTimeRequests(page)
    await open(page, '/fetching')
    const card = page.getByRole('main')
    await expect(card.getByText('Database time')).toBeVisible()
    // The time and the request id; not how long the server has run, nor its version.
    await expect(card.getByText('Server version')).toHaveCount(0)
    await expect(card.getByText('Server uptime')).toHaveCount(0)
    const requestId = card.locator('dt', { hasText: 'Request id' }).locator('xpath=following-sibling::dd[1]')
    const firstId = await requestId.textContent()
    expect(firstId).toMatch(/\S{8,}/)
    expect(counts.ok).toBe(1)

    const refresh = page.getByRole('button', { name: 'Refresh' })
    await refresh.click()
    await expect.poll(() => counts.ok).toBe(2)
    await expect(refresh).toBeEnabled()
    // A new answer, with its own request id.
    await expect(requestId).not.toHaveText(firstId ?? '')
    expect(counts.failing).toBe(0)
  })

  test('a failing server is retried 3 times in all, then shows an error with Try again', async ({ page, diagnostics }) => {
    diagnostics.allowConsoleError(failedResource(503))
    const counts = countServerTimeRequests(page)
    await open(page, '/fetching')
    await expect(page.getByText('Database time')).toBeVisible()

    await page.getByRole('checkbox', { name: 'Simulate a server failure' }).check()
    const alert = page.getByRole('main').getByRole('alert')
    // Retries back off (0.5 s then 1 s, with jitter): the error shows after all three attempts.
    await expect(alert).toContainText('The service is temporarily unavailable. Try again in a moment.', {
      timeout: 10_000,
    })
    expect(counts.failing).toBe(3)
    await expect(page.getByText('Database time')).toHaveCount(0)
    // No further attempts once the error is shown.
    await page.waitForTimeout(1500)
    expect(counts.failing).toBe(3)

    // Try again: a new round of three attempts, and the same clear error.
    await alert.getByRole('button', { name: 'Try again' }).click()
    await expect.poll(() => counts.failing, { timeout: 10_000 }).toBe(6)
    await expect(alert.getByRole('button', { name: 'Try again' })).toBeVisible({ timeout: 10_000 })
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled()
    expect(counts.failing).toBe(6)

    // The server "recovers": the data comes back.
    await page.getByRole('checkbox', { name: 'Simulate a server failure' }).uncheck()
    await expect(page.getByText('Database time')).toBeVisible()
    await expect(alert).toHaveCount(0)
  })
})

test.describe('posting a form', () => {
  test('empty fields get errors tied to them; nothing is sent', async ({ page }) => {
    let posts = 0
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/demo/messages')) posts++
    })
    await open(page, '/fetching-post')
    const name = page.getByRole('textbox', { name: 'Name' })
    const email = page.getByRole('textbox', { name: 'Email' })
    const message = page.getByRole('textbox', { name: 'Message' })
    for (const field of [name, email, message]) await expect(field).not.toHaveAttribute('aria-invalid', 'true')

    await page.getByRole('button', { name: 'Send' }).click()

    for (const [field, text] of [
      [name, 'Required'],
      [email, 'Enter a valid email address'],
      [message, 'At least 10 characters'],
    ] as const) {
      await expect(field).toHaveAttribute('aria-invalid', 'true')
      await expect(field).toHaveAccessibleDescription(text)
      // aria-describedby names the very element that shows the message.
      const describedBy = await field.getAttribute('aria-describedby')
      expect(describedBy).toBeTruthy()
      await expect(page.locator(`[id="${describedBy}"]`)).toHaveText(text)
    }
    // The first field in error takes the focus.
    await expect(name).toBeFocused()
    expect(posts).toBe(0)

    // A message still too short keeps its error; the fixed fields lose theirs.
    await name.fill('Ada')
    await email.fill('ada@example.com')
    await message.fill('too short')
    await page.getByRole('button', { name: 'Send' }).click()
    await expect(message).toHaveAccessibleDescription('At least 10 characters')
    await expect(name).toHaveAttribute('aria-invalid', 'false')
    await expect(email).toHaveAttribute('aria-invalid', 'false')
    await expect(name).not.toHaveAttribute('aria-describedby')
    expect(posts).toBe(0)
  })

  test('field errors speak the interface language', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('lingua.lang', 'ru'))
    await open(page, '/fetching-post')
    await page.getByRole('button', { name: 'Отправить' }).click()
    await expect(page.getByRole('textbox', { name: 'Имя' })).toHaveAccessibleDescription('Обязательное поле')
    await expect(page.getByRole('textbox', { name: 'Эл. почта' })).toHaveAccessibleDescription(
      'Введите корректный адрес почты',
    )
    await expect(page.getByRole('textbox', { name: 'Сообщение' })).toHaveAccessibleDescription(
      'Не короче 10 символов',
    )
  })

  test('valid data is sent and the server answers with the trimmed values', async ({ page }) => {
    await open(page, '/fetching-post')
    await page.getByRole('textbox', { name: 'Name' }).fill('  Ada Lovelace  ')
    await page.getByRole('textbox', { name: 'Email' }).fill('  ada@example.com ')
    await page.getByRole('textbox', { name: 'Message' }).fill('  Hello from the browser tests!  ')
    const answer = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith('/api/demo/messages'),
    )
    await page.getByRole('button', { name: 'Send' }).click()
    expect((await answer).status()).toBe(200)

    const section = page.getByRole('region', { name: 'The server accepted' })
    await expect(section).toBeVisible()
    const values = section.locator('dd')
    await expect(values).toHaveText(['Ada Lovelace', 'ada@example.com', 'Hello from the browser tests!'])
    await expect(section.locator('dt')).toHaveText(['Name', 'Email', 'Message'])
    await expect(page.getByRole('region', { name: 'Notifications (F8)' }).locator('li')).toContainText(
      'Message sent',
    )
  })
})

test.describe('shared state', () => {
  test('one counter follows the visitor between the two pages', async ({ page }) => {
    await open(page, '/shared-state-home')
    await expect(mainHeading(page)).toHaveText('Shared state: first page')
    await expect(page.getByText(/^Count: /)).toHaveText('Count: 0')

    const increment = page.getByRole('button', { name: 'Increment' })
    await increment.click()
    await increment.click()
    await increment.click()
    await expect(page.getByText(/^Count: /)).toHaveText('Count: 3')

    await page.getByRole('link', { name: 'Go to the second page' }).click()
    await expect(page).toHaveURL('/shared-state-about')
    await expect(mainHeading(page)).toHaveText('Shared state: second page')
    await expect(page.getByText(/^Count: /)).toHaveText('Count: 3')

    await page.getByRole('button', { name: 'Increment' }).click()
    await page.getByRole('button', { name: 'Decrement' }).click()
    await page.getByRole('button', { name: 'Increment' }).click()
    await expect(page.getByText(/^Count: /)).toHaveText('Count: 4')

    await page.getByRole('link', { name: 'Go to the first page' }).click()
    await expect(page).toHaveURL('/shared-state-home')
    await expect(page.getByText(/^Count: /)).toHaveText('Count: 4')

    // Back and forward in the browser keep it too.
    await page.goBack()
    await expect(page).toHaveURL('/shared-state-about')
    await expect(page.getByText(/^Count: /)).toHaveText('Count: 4')

    await page.getByRole('button', { name: 'Reset' }).click()
    await expect(page.getByText(/^Count: /)).toHaveText('Count: 0')
    await page.goForward()
    await expect(page.getByText(/^Count: /)).toHaveText('Count: 0')
  })

  test('it is client state: a full reload starts again at zero', async ({ page }) => {
    await open(page, '/shared-state-home')
    await page.getByRole('button', { name: 'Increment' }).click()
    await expect(page.getByText(/^Count: /)).toHaveText('Count: 1')
    await open(page, '/shared-state-about')
    await expect(page.getByText(/^Count: /)).toHaveText('Count: 0')
  })
})
