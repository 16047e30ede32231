import { accessibilityViolations, expect, mainHeading, open, test } from './helpers/fixtures'

// The checks every test relies on must be able to fail: each case below breaks one on purpose and
// checks that it is caught, then clears the record so that this test itself can pass.

test.describe('the browser guard of every test', () => {
  test('catches a Content-Security-Policy violation', async ({ page, diagnostics }) => {
    await open(page, '/')
    await expect(mainHeading(page)).toBeVisible()
    expect(diagnostics.problems().csp).toEqual([])
    // An inline script the policy does not list by hash: the browser must refuse it.
    await page.evaluate(() => {
      const script = document.createElement('script')
      script.textContent = 'window.__injected = true'
      document.head.append(script)
    })
    expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined()
    await expect
      .poll(() => diagnostics.problems().csp.join('\n'))
      .toMatch(/Content Security Policy.*script-src/)
    diagnostics.reset()
  })

  test('catches an uncaught page error', async ({ page, diagnostics }) => {
    await open(page, '/')
    await page.evaluate(() =>
      setTimeout(() => {
        throw new Error('boom from the harness test')
      }),
    )
    await expect.poll(() => diagnostics.problems().pageErrors.join('\n')).toContain('boom from the harness test')
    diagnostics.reset()
  })

  test('catches a console error the test did not declare, and lets a declared one through', async ({
    page,
    diagnostics,
  }) => {
    diagnostics.allowConsoleError(/^expected from the harness test$/)
    await open(page, '/')
    await page.evaluate(() => console.error('expected from the harness test'))
    await page.evaluate(() => console.error('unexpected from the harness test'))
    await expect.poll(() => diagnostics.consoleErrors.length).toBe(2)
    expect(diagnostics.problems().unexpectedConsoleErrors).toEqual([
      expect.stringMatching(/^unexpected from the harness test/),
    ])
    diagnostics.reset()
  })
})

test('axe reports a broken page', async ({ page }) => {
  await open(page, '/about')
  await expect(mainHeading(page)).toBeVisible()
  await page.evaluate(() => {
    const input = document.createElement('input')
    input.type = 'text'
    const faint = document.createElement('p')
    faint.textContent = 'barely readable'
    faint.style.color = '#bbbbbb'
    faint.style.background = '#ffffff'
    document.querySelector('main')?.append(input, faint)
  })
  const violations = await accessibilityViolations(page)
  expect(violations.some((line) => line.startsWith('label '))).toBe(true)
  expect(violations.some((line) => line.startsWith('color-contrast '))).toBe(true)
})
