import type { BrowserContext, Locator, Page } from '@playwright/test'
import ru from '@/client/locales/ru'
import { accessibilityViolations, animationsDone, expect, mainHeading } from './fixtures'

// Helpers of the accessibility specs: the colour mode × language matrix, axe findings collected
// over many pages, the focus indicator of a keyboard stop, and a form error tied to its field.

export const colourModes = ['light', 'dark'] as const
export type ColourMode = (typeof colourModes)[number]
export const interfaceLanguages = ['en', 'ru'] as const
export type InterfaceLanguage = (typeof interfaceLanguages)[number]

/** The labels the accessibility journeys press, in both interface languages. */
export function labelsIn(lang: InterfaceLanguage) {
  const en = {
    turnOn: 'Turn on',
    password: 'Password',
    deleteAccountOpen: 'Delete account…',
    reorder: 'Reorder',
    cancel: 'Cancel',
    deleteNamed: (code: string) => `Delete ${code}`,
    delete: 'Delete',
    menu: 'Menu',
    send: 'Send',
    createAccount: 'Create account',
    signIn: 'Sign in',
  }
  if (lang === 'en') return en
  return {
    turnOn: ru.account.turnOn,
    password: ru.account.password,
    deleteAccountOpen: ru.account.deleteOpen,
    reorder: ru.adminLevels.reorder,
    cancel: ru.adminLevels.cancel,
    deleteNamed: (code: string) => ru.adminLevels.deleteNamed.replace('{code}', code),
    delete: ru.adminLevels.delete,
    menu: ru.layout.menu,
    send: ru.demoPost.submit,
    createAccount: ru.auth.createAccount,
    signIn: ru.auth.signIn,
  } satisfies typeof en
}

/** Stores a colour mode and a language before any script of the page runs, as the switches do. */
export async function prefer(target: Page | BrowserContext, mode: ColourMode, lang: InterfaceLanguage) {
  await target.addInitScript(
    ([storedMode, storedLang]) => {
      localStorage.setItem('lingua.theme', storedMode)
      localStorage.setItem('lingua.lang', storedLang)
    },
    [mode, lang] as const,
  )
}

/**
 * Waits until the page shows its heading in that mode and language with nothing loading (no
 * skeleton, no busy region) and no finite animation under way (a toast sliding in would skew the
 * contrast figures).
 */
export async function settled(page: Page, mode: ColourMode, lang: InterfaceLanguage) {
  await expect(mainHeading(page)).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('lang', lang)
  if (mode === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/)
  await quiet(page)
}

/** Nothing loading (no skeleton, no busy region) and no finite animation under way. */
export async function quiet(page: Page) {
  await expect(page.locator('.animate-pulse, [aria-busy="true"]')).toHaveCount(0)
  await animationsDone(page)
}

/** axe's findings on many pages and states, kept by label, so one test reports all of them at once. */
export class ViolationReport {
  private readonly found: Record<string, string[]> = {}
  readonly checked: string[] = []

  async check(page: Page, label: string) {
    const violations = await accessibilityViolations(page)
    this.checked.push(label)
    if (violations.length > 0) this.found[label] = violations
  }

  expectNone() {
    expect(this.found, `axe findings (checked: ${this.checked.join(', ')})`).toEqual({})
  }
}

export interface FocusStop {
  /** Tag, role and name, for messages. */
  element: string
  focusVisible: boolean
  indicator: string | null
  visible: boolean
}

/**
 * What marks the focused element as focused: an outline (style not none, width ≥ 1 px, a colour
 * that is not transparent) or a ring (a box-shadow with no blur and a spread of at least 1 px, in
 * a colour that is not transparent; a soft drop shadow does not count). A heading, which takes
 * focus only from the app (the page's heading after a navigation), is no control and is marked by an
 * underline instead (at least 2 px thick, not transparent): headings are never underlined otherwise.
 */
export async function focusStop(page: Page): Promise<FocusStop | null> {
  return page.evaluate(() => {
    const element = document.activeElement
    if (!element || element === document.body || !(element instanceof HTMLElement)) return null
    const transparent = (colour: string) => /^transparent$|^rgba\(.*,\s*0\)$/.test(colour.trim())
    const style = getComputedStyle(element)
    let indicator: string | null = null
    if (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 1 && !transparent(style.outlineColor)) {
      indicator = `outline ${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}`
    } else if (style.boxShadow !== 'none') {
      // "rgb(22, 163, 74) 0px 0px 0px 2px, rgba(0, 0, 0, 0) 0px 0px 0px 0px": colour, x, y, blur, spread.
      const ring = style.boxShadow
        .split(/,(?![^(]*\))/)
        .map((shadow) => /^(.*\))\s+(-?[\d.]+)px\s+(-?[\d.]+)px\s+([\d.]+)px\s+(-?[\d.]+)px/.exec(shadow.trim()))
        .find((parts) => parts && !transparent(parts[1] ?? '') && Number(parts[4]) === 0 && Number(parts[5]) >= 1)
      if (ring) indicator = `ring ${ring[0]}`
    }
    if (
      !indicator &&
      /^H[1-6]$/.test(element.tagName) &&
      style.textDecorationLine.includes('underline') &&
      Number.parseFloat(style.textDecorationThickness) >= 2 &&
      !transparent(style.textDecorationColor)
    ) {
      indicator = `underline ${style.textDecorationThickness} ${style.textDecorationColor}`
    }
    const name =
      element.getAttribute('aria-label') ??
      (element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement
        ? (element.labels?.[0]?.textContent ?? '')
        : (element.textContent ?? ''))
    const rect = element.getBoundingClientRect()
    return {
      element: `<${element.tagName.toLowerCase()}${element.getAttribute('role') ? ` role=${element.getAttribute('role')}` : ''}> "${name.trim().slice(0, 60)}"`,
      focusVisible: element.matches(':focus-visible'),
      indicator,
      visible: element.checkVisibility() && rect.width > 0 && rect.height > 0,
    }
  })
}

/** Asserts that the element with focus is visible and shows that it has focus. */
export async function expectVisibleFocus(page: Page, after: string) {
  const stop = await focusStop(page)
  expect(stop, `something has focus after ${after}`).not.toBeNull()
  if (!stop) return
  expect(stop.visible, `${stop.element} (after ${after}) is on screen`).toBe(true)
  expect(stop.indicator, `${stop.element} (after ${after}) shows a focus indicator`).not.toBeNull()
}

/**
 * Presses a key that moves focus (Tab, Shift+Tab, arrows in a group), waits until the element it
 * should reach has focus, and checks its focus indicator.
 */
export async function press(page: Page, key: string, expected: Locator) {
  await page.keyboard.press(key)
  await expect(expected, `focus after ${key}`).toBeFocused()
  await expectVisibleFocus(page, key)
}

/**
 * Presses Tab (or Shift+Tab) until the target has focus, checking the focus indicator at every stop
 * on the way. The target must be on screen first: the walk starts from a settled page (after a
 * navigation, from its focused heading), never while content is being replaced.
 */
export async function tabTo(page: Page, target: Locator, { backwards = false, limit = 60 } = {}) {
  const key = backwards ? 'Shift+Tab' : 'Tab'
  await expect(target, `${target.toString()} to tab to`).toBeVisible()
  for (let stops = 0; stops < limit; stops += 1) {
    await page.keyboard.press(key)
    await expectVisibleFocus(page, key)
    if (await target.evaluate((element) => element === document.activeElement)) return
  }
  throw new Error(`${target.toString()} got no focus within ${limit} presses of ${key}`)
}

/**
 * After a client-side navigation (or the page's content replaced), focus is on the page's main
 * heading, with that text; `keyboard`: reached by a key press, it shows the focus indicator.
 */
export async function expectHeadingFocused(page: Page, text: string | RegExp, { keyboard = true } = {}) {
  const heading = mainHeading(page)
  await expect(heading).toHaveText(text)
  await expect(heading).toBeFocused()
  if (keyboard) await expectVisibleFocus(page, 'the page changed')
}

/**
 * A field refused with a message: aria-invalid, and aria-describedby naming an element that holds
 * exactly that message and is announced (role=alert, or inside a live region).
 */
export async function expectFieldError(field: Locator, message: string | RegExp) {
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  const described = await field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => {
        const target = document.getElementById(id)
        const live = target?.closest('[role="alert"], [role="status"], [aria-live]:not([aria-live="off"])')
        return { id, text: target?.textContent?.trim() ?? null, announced: Boolean(live) }
      }),
  )
  const matches = described.filter(({ text }) =>
    text !== null && (typeof message === 'string' ? text === message : message.test(text)),
  )
  expect(matches, `aria-describedby of the field (${JSON.stringify(described)}) names the error "${message}"`).toHaveLength(1)
  expect(matches[0]?.announced, `the error "${message}" is in a role=alert or live region`).toBe(true)
  // And assistive technology gets it as the field's description.
  await expect(field).toHaveAccessibleDescription(new RegExp(escape(matches[0]?.text ?? String(message))))
}

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
