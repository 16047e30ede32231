import type { APIRequestContext, Page } from '@playwright/test'
import type { LevelPage } from '@/shared/levels'
import type { PracticeQueue } from '@/shared/practice'
import ru from '@/client/locales/ru'
import {
  type ColourMode,
  type InterfaceLanguage,
  ViolationReport,
  colourModes,
  interfaceLanguages,
  labelsIn,
  prefer,
  settled,
} from './helpers/a11y'
import { signedInAs, userMenuButton } from './helpers/accounts'
import {
  accessibilityViolations,
  expect,
  expectErrorScreen,
  failedResource,
  guardedPaths,
  mainHeading,
  open,
  test,
  visitorPages,
} from './helpers/fixtures'

// axe (WCAG 2.0/2.1 A and AA, 2.2 AA) on every route of docs/product.md §3, for a visitor and for a learner
// (the administrator's side is accessibility-admin.spec.ts, in the `admin` project), in both colour
// modes and both interface languages, with the states that matter open: redirects, the 403 screen,
// dialogs, menus, forms with errors. Then reflow on a small screen and reduced motion.

const learnerName = 'Lena Learner'

/** The pages a signed-in user opens like a visitor (login and register send them to the dashboard). */
const openPages = visitorPages.filter(({ path }) => path !== '/login' && path !== '/register')

async function visit(page: Page, path: string, mode: ColourMode, lang: InterfaceLanguage, status = 200) {
  await open(page, path, status)
  await settled(page, mode, lang)
}

/** A level, and three of its words graded "Good" through the API, as the practice page would. */
async function practiseThree(request: APIRequestContext, baseURL: string) {
  const levels = (await (await request.get('/api/language-levels?pageSize=100')).json()) as LevelPage
  const profile = { language: 'en', currentLevelId: levels.items.find((level) => level.code === 'A1')?.id ?? null, targetLevelId: null }
  expect((await request.put('/api/me/profile', { headers: { Origin: baseURL }, data: profile })).status()).toBe(200)
  const queue = (await (await request.get('/api/me/practice/queue?limit=3')).json()) as PracticeQueue
  for (const card of queue.cards) {
    const graded = await request.post('/api/me/practice/reviews', {
      headers: { Origin: baseURL },
      data: { clientId: crypto.randomUUID(), wordId: card.wordId, grade: 3, version: card.schedule.version },
    })
    expect(graded.status(), await graded.text()).toBe(201)
  }
}

async function openPalette(page: Page) {
  await page.keyboard.press('Control+k')
  await expect(page.getByRole('dialog')).toBeVisible()
  await expect(page.getByRole('dialog').getByRole('combobox')).toBeFocused()
}

for (const lang of interfaceLanguages) {
  for (const mode of colourModes) {
    test.describe(`in ${lang === 'en' ? 'English' : 'Russian'}, ${mode} mode`, () => {
      const labels = labelsIn(lang)
      test.beforeEach(async ({ page }) => {
        await prefer(page, mode, lang)
      })

      test('every route a visitor opens has no WCAG violations', async ({ page, diagnostics }) => {
        test.setTimeout(120_000)
        diagnostics.allowConsoleError(failedResource(404))
        diagnostics.allowConsoleError(failedResource(400))
        const report = new ViolationReport()
        for (const { path } of visitorPages) {
          await visit(page, path, mode, lang)
          await report.check(page, path)
        }

        // The other steps of signing in and of the emailed links.
        await visit(page, '/login?method=code', mode, lang)
        await report.check(page, 'code sign-in')
        await visit(page, '/login?method=recovery', mode, lang)
        await report.check(page, 'password recovery request')
        await visit(page, '/confirm?type=recovery&token=not-a-token', mode, lang)
        await report.check(page, 'new password form')
        await visit(page, '/confirm?type=signup&token=not-a-token', mode, lang)
        await expect(page.getByRole('main').getByRole('textbox')).toBeVisible()
        await report.check(page, 'invalid link with the resend form')

        // Forms with their errors shown.
        await visit(page, '/register', mode, lang)
        await page.getByRole('button', { name: labels.createAccount }).click()
        await expect(page.locator('[aria-invalid="true"]')).toHaveCount(3)
        await report.check(page, 'register with field errors')

        // Every guarded route sends a visitor to the sign-in page, which says where they will return.
        for (const path of guardedPaths) {
          await open(page, path)
          await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(path)}`)
        }
        await settled(page, mode, lang)
        await report.check(page, 'a guarded route (sign-in page)')

        await visit(page, '/no-such-page', mode, lang, 404)
        await expect(page.getByTestId('error-status')).toHaveText('404')
        await report.check(page, '404 error screen')

        await visit(page, '/', mode, lang)
        await openPalette(page)
        await report.check(page, 'command palette')

        report.expectNone()
      })

      test('every route a learner opens has no WCAG violations', async ({ page, context, baseURL, diagnostics }) => {
        test.setTimeout(150_000)
        diagnostics.allowConsoleError(failedResource(404))
        // The error screen logs what it shows.
        diagnostics.allowConsoleError(/Administrators only/)
        await signedInAs(context, baseURL ?? '', learnerName)
        const report = new ViolationReport()

        for (const { path } of openPages) {
          await visit(page, path, mode, lang)
          await report.check(page, path)
        }
        for (const path of ['/login', '/register']) {
          await open(page, path)
          await expect(page).toHaveURL('/dashboard')
        }

        await visit(page, '/dashboard', mode, lang)
        await expect(page.getByRole('main').getByRole('combobox')).toHaveCount(3)
        await report.check(page, '/dashboard')
        await userMenuButton(page, learnerName).click()
        await expect(page.getByRole('banner').getByRole('link', { name: /./ }).last()).toBeVisible()
        await report.check(page, 'user menu open')
        await page.keyboard.press('Escape')
        await openPalette(page)
        await report.check(page, 'command palette')
        await page.keyboard.press('Escape')

        // Progress: its empty states, then charts and their tables after a few grades.
        await visit(page, '/progress', mode, lang)
        await report.check(page, '/progress (nothing practised)')
        await practiseThree(context.request, baseURL ?? '')
        await visit(page, '/progress', mode, lang)
        const progressLabels = lang === 'en' ? { showTable: 'Show as table', last90: 'Last 90 days' } : ru.progress
        const shows = page.getByRole('main').getByRole('button', { name: progressLabels.showTable })
        await expect(shows).toHaveCount(2)
        while ((await shows.count()) > 0) await shows.first().click()
        await expect(page.getByRole('main').getByRole('table')).toHaveCount(2)
        await page.getByRole('main').getByRole('button', { name: progressLabels.last90 }).click()
        await report.check(page, '/progress (charts and tables)')

        await visit(page, '/account', mode, lang)
        await report.check(page, '/account')
        // Two-step verification: the password step, then the QR code, key and backup codes.
        await page.getByRole('button', { name: labels.turnOn, exact: true }).click()
        const passwordField = page.getByRole('main').getByRole('textbox', { name: labels.password, exact: true })
        await expect(passwordField).toBeFocused()
        await report.check(page, 'MFA: password step')
        await passwordField.fill('correct horse battery')
        await page.getByRole('button', { name: labels.turnOn, exact: true }).click()
        await expect(page.getByRole('img', { name: /QR/ })).toBeVisible()
        await report.check(page, 'MFA enrolment (QR code, backup codes)')
        await page.getByRole('button', { name: labels.cancel, exact: true }).click()
        // Deleting the account: the typed confirmation.
        await page.getByRole('button', { name: labels.deleteAccountOpen }).click()
        await expect(page.getByRole('main').getByRole('textbox', { name: labels.password, exact: true })).toBeVisible()
        await report.check(page, 'delete account confirmation')

        // The admin routes refuse a learner with the 403 screen; the auth-only create page shows a notice.
        for (const path of ['/create', '/admin/language-levels', '/admin/language-levels/1']) {
          await visit(page, path, mode, lang)
          await expect(page.getByTestId('error-status')).toHaveText('403')
        }
        if (lang === 'en') await expectErrorScreen(page, 403, 'Administrators only')
        await report.check(page, '403 error screen')
        await visit(page, '/admin/language-levels/create', mode, lang)
        await expect(page.getByRole('main').getByRole('textbox').first()).toBeDisabled()
        await report.check(page, '/admin/language-levels/create (notice, form off)')

        await visit(page, '/no-such-page', mode, lang, 404)
        await report.check(page, '404 error screen')

        report.expectNone()
      })

      test('the answer of the form demo, a toast and the fetching error state have no WCAG violations', async ({
        page,
        diagnostics,
      }) => {
        diagnostics.allowConsoleError(failedResource(503))
        const report = new ViolationReport()
        await visit(page, '/fetching-post', mode, lang)
        const main = page.getByRole('main')
        await main.getByRole('textbox').nth(0).fill('Ada')
        await main.getByRole('textbox').nth(1).fill('ada@example.com')
        await main.getByRole('textbox').nth(2).fill('Hello there, Lingua!')
        await main.getByRole('button', { name: labels.send }).click()
        await expect(page.getByRole('region', { name: /./ }).locator('dl')).toBeVisible()
        await expect(page.locator('[data-state="open"]').filter({ has: page.locator('button') })).toHaveCount(1)
        await report.check(page, 'the answer and a toast')

        await visit(page, '/fetching', mode, lang)
        await main.getByRole('checkbox').check()
        await expect(main.getByRole('alert')).toBeVisible({ timeout: 10_000 })
        await report.check(page, 'fetching error with retry')
        report.expectNone()
      })

      test.describe('on a 360 px wide screen', () => {
        test.use({ viewport: { width: 360, height: 740 } })

        test('pages fit and have no WCAG violations, menu closed and open', async ({ page }) => {
          test.setTimeout(90_000)
          const report = new ViolationReport()
          for (const path of ['/', '/fetching-post', '/about', '/register']) {
            await visit(page, path, mode, lang)
            await report.check(page, `${path}, menu closed`)
            await page.getByRole('banner').getByRole('button', { name: labels.menu }).click()
            await expect(page.getByRole('banner').getByRole('combobox')).toBeVisible()
            await report.check(page, `${path}, menu open`)
            // Nothing wider than the screen (WCAG 1.4.10 reflow).
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
            expect(overflow, `horizontal overflow of ${path}`).toBeLessThanOrEqual(0)
          }
          report.expectNone()
        })
      })
    })
  }
}

test.describe('reduced motion', () => {
  /** The durations (ms) and iteration counts of the animations and transitions an element has. */
  async function motionOf(page: Page, selector: string) {
    return page.locator(selector).first().evaluate((element) => {
      const style = getComputedStyle(element)
      const ms = (value: string) =>
        Math.max(...value.split(',').map((part) => Number.parseFloat(part) * (part.trim().endsWith('ms') ? 1 : 1000)))
      return {
        animationName: style.animationName,
        animation: ms(style.animationDuration),
        iterations: style.animationIterationCount,
        transition: ms(style.transitionDuration),
      }
    })
  }

  /** Holds the answers to requests matching `url` while `look` runs (a loading state stays on screen). */
  async function whileHeld<T>(page: Page, url: string, look: () => Promise<T>): Promise<T> {
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route(url, async (route) => {
      await held
      await route.continue().catch(() => undefined)
    })
    try {
      return await look()
    } finally {
      release()
      await page.unrouteAll({ behavior: 'wait' })
    }
  }

  /** A skeleton, a spinner, a toast, a button's colour change, as the page shows them. */
  async function moving(page: Page) {
    const skeleton = await whileHeld(page, '**/api/demo/server-time*', async () => {
      await open(page, '/fetching')
      return motionOf(page, '.animate-pulse')
    })
    const spinner = await whileHeld(page, '**/api/auth/verify-email*', async () => {
      await open(page, '/confirm?type=signup&token=held')
      return motionOf(page, '.animate-spin')
    })

    await open(page, '/fetching-post')
    const button = await motionOf(page, 'main button[type="submit"]')
    await page.getByRole('textbox', { name: 'Name' }).fill('Ada')
    await page.getByRole('textbox', { name: 'Email' }).fill('ada@example.com')
    await page.getByRole('textbox', { name: 'Message' }).fill('Hello there, Lingua!')
    await page.getByRole('button', { name: 'Send' }).click()
    const toast = await motionOf(page, '[data-state="open"][data-swipe-direction]')
    return { skeleton, spinner, button, toast }
  }

  test('without the preference, skeletons, toasts and buttons move', async ({ page, diagnostics }) => {
    diagnostics.allowConsoleError(failedResource(400))
    const motion = await moving(page)
    expect(motion.skeleton).toMatchObject({ animationName: 'pulse', iterations: 'infinite' })
    expect(motion.skeleton.animation).toBeGreaterThan(100)
    expect(motion.spinner).toMatchObject({ animationName: 'spin', iterations: 'infinite' })
    expect(motion.toast.animationName).toBe('toast-in')
    expect(motion.toast.animation).toBeGreaterThan(100)
    expect(motion.button.transition).toBeGreaterThan(100)
  })

  test.describe('with prefers-reduced-motion: reduce', () => {
    test.use({ contextOptions: { reducedMotion: 'reduce' } })

    test('animations and transitions are off: skeletons, spinners, toasts, buttons', async ({ page, diagnostics }) => {
      diagnostics.allowConsoleError(failedResource(400))
      const motion = await moving(page)
      for (const [what, values] of Object.entries(motion)) {
        expect(values.animation, `${what}: animation-duration`).toBeLessThanOrEqual(0.01)
        expect(values.transition, `${what}: transition-duration`).toBeLessThanOrEqual(0.01)
        // An endless animation of almost no length would flicker: it runs once and stops.
        if (values.animationName !== 'none') expect(values.iterations, `${what}: iterations`).toBe('1')
      }
    })

    test('the command palette (a dialog) opens without motion', async ({ page }) => {
      await open(page, '/')
      await expect(mainHeading(page)).toBeVisible()
      await page.keyboard.press('Control+k')
      const dialog = page.getByRole('dialog')
      await expect(dialog).toBeVisible()
      const running = await page.evaluate(() =>
        document.getAnimations().map((animation) => ({
          name: animation instanceof CSSAnimation ? animation.animationName : animation.constructor.name,
          duration: Number(animation.effect?.getComputedTiming().duration ?? 0),
        })),
      )
      for (const animation of running) expect(animation.duration, animation.name).toBeLessThanOrEqual(0.01)
      const overlay = await dialog.evaluate((element) => {
        const style = getComputedStyle(element)
        return [style.animationDuration, style.transitionDuration]
      })
      for (const value of overlay) expect(Number.parseFloat(value)).toBeLessThanOrEqual(0.00001)
      expect(await accessibilityViolations(page)).toEqual([])
    })
  })
})
