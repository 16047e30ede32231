import type { BrowserContext } from '@playwright/test'
import {
  authenticatorCode,
  confirmPath,
  registerAndConfirm,
  signInWithPassword,
  signOutFromMenu,
  subjects,
  turnOnTwoStep,
  userMenuButton,
  waitForMail,
} from './helpers/accounts'
import { expect, mainHeading, test } from './helpers/fixtures'

// The seed's seven session events, as a subscriber outside the app hears them: the client
// dispatches `lingua:auth` on window for each (src/client/lib/auth.ts).

declare global {
  interface Window {
    linguaAuthEvent?: (event: string) => void
  }
}

/** Every auth event of every page of the context, in the order the pages dispatched them. */
async function recordAuthEvents(context: BrowserContext): Promise<string[]> {
  const heard: string[] = []
  await context.exposeFunction('linguaAuthEvent', (event: string) => heard.push(event))
  await context.addInitScript(() => {
    window.addEventListener('lingua:auth', (event) => {
      void window.linguaAuthEvent?.((event as CustomEvent<{ event: string }>).detail.event)
    })
  })
  return heard
}

test('a subscriber hears each session event as the journey causes it, in order', async ({ page, context, baseURL }) => {
  test.setTimeout(90_000)
  const heard = await recordAuthEvents(context)
  let seen = 0
  /** The events heard since the last call are exactly these. */
  const expectNext = async (...events: string[]) => {
    await expect.poll(() => heard.slice(seen), { message: `after ${heard.slice(0, seen).join(', ')}` }).toEqual(events)
    seen = heard.length
  }
  // The session check runs on a five-minute timer: the page's clock is moved instead of waited.
  await page.clock.install()

  // A new document reads the session once; the emailed link signs in.
  const email = await registerAndConfirm(page, 'Event Listener')
  await expectNext('INITIAL_SESSION', 'INITIAL_SESSION', 'SIGNED_IN')

  await page.clock.fastForward('05:01')
  await expectNext('TOKEN_REFRESHED')

  await userMenuButton(page, 'Event Listener').click()
  await page.getByRole('link', { name: 'Account', exact: true }).click()
  const profile = page.getByRole('region', { name: 'Profile', exact: true })
  await profile.getByLabel('Name', { exact: true }).fill('Event Renamed')
  await profile.getByRole('button', { name: 'Save' }).click()
  await expectNext('USER_UPDATED')

  const { secret } = await turnOnTwoStep(page)
  await expectNext('USER_UPDATED')

  await signOutFromMenu(page, 'Event Renamed')
  await expectNext('SIGNED_OUT')

  await page.goto('/login')
  await signInWithPassword(page, email)
  await expect(mainHeading(page)).toHaveText('Two-step verification')
  await page.getByLabel('Authentication code').fill(await authenticatorCode(secret))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expectNext('INITIAL_SESSION', 'MFA_CHALLENGE_VERIFIED', 'SIGNED_IN')

  // The recovery link, opened in this signed-in browser.
  const requested = await context.request.post('/api/auth/request-password-reset', {
    headers: { Origin: baseURL ?? '' },
    data: { email },
  })
  expect(requested.status()).toBe(200)
  await page.goto(confirmPath(await waitForMail(email, subjects.reset)))
  await expect(mainHeading(page)).toHaveText('Choose a new password')
  await expect.poll(() => heard.slice(seen)).toEqual(['INITIAL_SESSION', 'PASSWORD_RECOVERY'])
})
