import type { Page } from '@playwright/test'
import { type TestDatabase, createTestDatabase } from '../helpers/database'
import { type OwnServer, startOwnServer } from './helpers/admin'
import { expect, failedResource, test } from './helpers/fixtures'

// A real outage, not a simulated one (demos.spec.ts has that): a server of its own on a PostgreSQL
// database of its own, which the test closes to connections and opens again. The server keeps
// running: what the user sees is the app's answer, 503, and the client's retries.

test.skip(!process.env.TEST_DATABASE_URL, 'needs TEST_DATABASE_URL (a PostgreSQL server)')

/** Counts the browser's requests to an API path, and their statuses. */
function countRequests(page: Page, pathname: string) {
  const counts = { sent: 0, unavailable: 0, ok: 0 }
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === pathname) counts.sent++
  })
  page.on('response', (response) => {
    if (new URL(response.url()).pathname !== pathname) return
    if (response.status() === 503) counts.unavailable++
    else if (response.status() === 200) counts.ok++
  })
  return counts
}

test.describe('the database unreachable', () => {
  // One database and server for both tests, which close it in turn.
  test.describe.configure({ mode: 'serial' })
  let database: TestDatabase
  let server: OwnServer

  test.beforeAll(async () => {
    database = await createTestDatabase()
    server = await startOwnServer({ env: { DATABASE_URL: database.url } })
  })
  test.afterAll(async () => {
    await server?.stop()
    await database?.drop()
  })
  test.afterEach(async () => {
    // Whatever the test did, the next one starts with the database reachable.
    await database.allowConnections()
  })

  test('the home page retries its level list 3 times, says it could not load, and shows the levels on Try again once the database is back', async ({
    page,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(failedResource(503))
    // React reports the error its boundary caught (the list's) on the console.
    diagnostics.allowConsoleError(/The service is temporarily unavailable/)
    const reads = countRequests(page, '/api/language-levels')
    await database.blockConnections()

    // The server cannot render the home page with its levels: it sends the app shell, and the
    // browser reads the list itself.
    await page.goto(`${server.url}/`)
    const levels = page.getByRole('region', { name: 'The levels' })
    const alert = levels.getByRole('alert')
    // The page itself shows at once; the list waits for its three attempts (0.5 s, then 1 s apart).
    await expect(page.getByRole('heading', { level: 1, name: 'Learn a language level by level' })).toBeVisible()
    await expect(alert).toContainText('The levels could not be loaded: the service is temporarily unavailable.', {
      timeout: 10_000,
    })
    expect(reads).toEqual({ sent: 3, unavailable: 3, ok: 0 })
    await expect(levels.getByText('Beginner', { exact: true })).toHaveCount(0)
    // No more attempts once the error shows: the user decides.
    await page.waitForTimeout(1500)
    expect(reads.sent).toBe(3)

    await database.allowConnections()
    await alert.getByRole('button', { name: 'Try again' }).click()
    await expect(levels.getByText('Beginner', { exact: true })).toBeVisible()
    await expect(levels.getByText('Proficiency', { exact: true })).toBeVisible()
    await expect(alert).toHaveCount(0)
    // Try again read it (the live stream, back with the database, may have it read once more).
    expect(reads.sent).toBeGreaterThanOrEqual(4)
    expect(reads.ok).toBeGreaterThanOrEqual(1)
    expect(reads.unavailable).toBe(3)
  })

  test('a page reading the database says the service is unavailable after 3 attempts, and recovers on Try again', async ({
    page,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(failedResource(503))
    const reads = countRequests(page, '/api/demo/server-time')
    await page.goto(`${server.url}/fetching`)
    await expect(page.getByText('Database time')).toBeVisible()
    // Read once or more by now (the stream's `reset` after the previous test's outage reads again):
    // counted from here, with no read under way.
    await expect.poll(() => reads.sent - reads.ok - reads.unavailable).toBe(0)
    const before = { ...reads }
    await database.blockConnections()

    // A read while the database is away: the same three attempts, then the 503's own message.
    await page.getByRole('button', { name: 'Refresh' }).click()
    const alert = page.getByRole('main').getByRole('alert')
    await expect(alert).toContainText('The service is temporarily unavailable.', { timeout: 10_000 })
    expect(reads).toEqual({ sent: before.sent + 3, unavailable: 3, ok: before.ok })

    await database.allowConnections()
    await alert.getByRole('button', { name: 'Try again' }).click()
    await expect(page.getByText('Database time')).toBeVisible()
    await expect(alert).toHaveCount(0)
    // Try again read it. The server's listener, back with the database, tells every stream to read
    // again (`reset`: it may have missed events), so the page may read it once more; when is not
    // the test's to choose. No read failed after the database was back.
    expect(reads.sent).toBeGreaterThanOrEqual(5)
    expect(reads.ok).toBeGreaterThanOrEqual(2)
    expect(reads.unavailable).toBe(3)
  })
})
