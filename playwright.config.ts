import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { chromeFlags, testChromePath } from './scripts/chromium.mjs'

/**
 * Browser tests against the built app (`npm run build` first): one server process on a fresh PGlite
 * folder, Debian's Chromium when it is installed (never `npx playwright install` on the dev machine).
 */

const port = Number(process.env.E2E_PORT ?? 4173)
/** `localhost`, not 127.0.0.1: WebAuthn refuses an IP address as the passkeys' relying party. */
const baseURL = `http://localhost:${port}`
/** The test mail server (tests/e2e/helpers/mailbox.ts): SMTP for the app, HTTP for the tests. */
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 4025)
const mailboxURL = `http://127.0.0.1:${process.env.E2E_MAILBOX_PORT ?? 4026}`
/**
 * The OpenID provider people sign in with ("Continue with Acme"): tests/e2e/helpers/oidc-provider.ts, its
 * control server for the tests (tests/e2e/helpers/oidc.ts). Started before the app, which reads its
 * discovery document at start.
 */
const oidcPort = Number(process.env.E2E_OIDC_PORT ?? 4027)
const oidcControlPort = Number(process.env.E2E_OIDC_CONTROL_PORT ?? 4028)
process.env.E2E_OIDC_CONTROL_URL = `http://127.0.0.1:${oidcControlPort}`
const oidcClient = { id: 'lingua-e2e', secret: 'lingua-e2e-client-secret-with-enough-entropy-0123456789' }

// The config is loaded by the runner and again by every worker: the runner makes the data folder and
// hands it to the workers through the environment, so there is one folder per run.
if (!process.env.E2E_DATA_DIR) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lingua-e2e-'))
  process.env.E2E_DATA_DIR = dataDir
  // The web server has been stopped by the time the runner exits.
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }))
}
const dataDir = process.env.E2E_DATA_DIR

/** A desktop Chrome: headless Chromium says "HeadlessChrome", which the app treats as a crawler. */
export const desktopUserAgent =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

/** The administrator of the browser tests (tests/e2e/admin.setup.ts signs it up), for the workers too. */
process.env.E2E_ADMIN_EMAIL ??= 'admin@lingua.test'
const adminEmail = process.env.E2E_ADMIN_EMAIL

const chromium = {
  ...devices['Desktop Chrome'],
  // `devices` brings its own (headless-neutral) user agent; keep ours.
  userAgent: desktopUserAgent,
  launchOptions: {
    ...(existsSync(testChromePath) ? { executablePath: testChromePath } : {}),
    args: [...chromeFlags],
  },
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  workers: 2,
  // One more try for a test that failed: on a two-core machine running the server, the provider,
  // the mail server and two browsers, a timing-bound step can lose a race that is the machine's,
  // not the app's. A test that passes only the second time is reported as flaky in the list and
  // the HTML report (and is looked into); one that fails twice fails the run.
  retries: 1,
  // A guard against a hang, not a measure of speed: the longest journeys (sign-up, enrolment and
  // two sign-ins; a page and its dialogs under axe) took 30–36 s on a loaded two-core machine,
  // past Playwright's default of 30 s. Longer journeys set their own.
  timeout: 60_000,
  expect: { timeout: 5_000 },
  reporter: [['list'], ['html', { outputFolder: 'playwright-report', open: 'never' }]],
  outputDir: 'test-results',
  use: {
    baseURL,
    userAgent: desktopUserAgent,
    locale: 'en-US',
    colorScheme: 'light',
    // A trace of the retry of a failed test (which runs again: `retries` above). Recording every
    // test's trace, to keep those that fail, cost a fifth of the suite's time.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: chromium,
      testIgnore: /admin(-person)?\.spec\.ts$/,
    },
    // The administrator (ADMIN_EMAILS below) signs up once; its signed-in state is kept for the
    // admin journeys, which run after it.
    { name: 'admin-setup', use: chromium, testMatch: /admin\.setup\.ts$/ },
    { name: 'admin', use: chromium, testMatch: /admin(-person)?\.spec\.ts$/, dependencies: ['admin-setup'] },
  ],
  webServer: [
    {
      command: 'npx tsx tests/e2e/helpers/mailbox.ts',
      url: `${mailboxURL}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_SMTP_PORT: String(smtpPort), E2E_MAILBOX_PORT: new URL(mailboxURL).port },
    },
    {
      command: 'npx tsx tests/e2e/helpers/oidc-provider.ts',
      url: `${process.env.E2E_OIDC_CONTROL_URL}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        E2E_OIDC_PORT: String(oidcPort),
        E2E_OIDC_CONTROL_PORT: String(oidcControlPort),
        E2E_OIDC_REDIRECT_URIS: `${baseURL}/api/auth/callback/oidc`,
        E2E_OIDC_CLIENT_ID: oidcClient.id,
        E2E_OIDC_CLIENT_SECRET: oidcClient.secret,
      },
    },
    {
      command: 'node dist/server/main.js',
      url: `http://127.0.0.1:${port}/api/ready`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        APP_URL: baseURL,
        // Every email goes to the test mail server, as it would to a real one.
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_FROM: 'Lingua <no-reply@lingua.test>',
        // Journeys that are refused a second email then wait for the window to pass: 15 s, not 60.
        MAIL_THROTTLE_SECONDS: '15',
        // A daily reminder turned on within its hour comes within 2 s, not a minute (reminders.spec.ts).
        REMINDER_SWEEP_SECONDS: '2',
        // The journeys create several accounts from one address.
        AUTH_RATE_LIMIT_SCALE: '20',
        // Parallel workers' pages each hold a live stream, all from this one address.
        LIVE_STREAMS_PER_ADDRESS: '1000',
        // One known administrator: no test depends on which account happens to verify first.
        ADMIN_EMAILS: adminEmail,
        OIDC_ISSUER: `http://127.0.0.1:${oidcPort}`,
        OIDC_CLIENT_ID: oidcClient.id,
        OIDC_CLIENT_SECRET: oidcClient.secret,
        OIDC_NAME: 'Acme',
        OIDC_TIMEOUT_MS: '3000',
      },
    },
  ],
})
