// How every browser of the project's tests and benchmarks starts: Debian's Chromium (override with
// CHROME_PATH), with the flags this machine needs. Without the background-networking ones Chromium
// keeps trying to reach Google's hosts, which the machine refuses.
import { existsSync } from 'node:fs'

/** The whole browser: the benchmarks measure what a person's Chrome does, and the screenshots show it. */
export const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium'

/**
 * The browser tests' Chromium: Debian's headless shell when it is installed (`apt-get install
 * chromium-headless-shell`), the same engine without the browser around it, as Playwright's own
 * headless runs use; the suite takes about a third less time on two cores. Else the whole browser.
 */
const headlessShellPath = '/usr/bin/chromium-headless-shell'
export const testChromePath = process.env.CHROME_PATH || (existsSync(headlessShellPath) ? headlessShellPath : chromePath)

export const chromeFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** A normal desktop Chrome user agent (not "HeadlessChrome", which bot detectors flag). */
export function desktopUserAgent(chromeVersion = '130.0.0.0') {
  const major = String(chromeVersion).split('.')[0]
  return `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`
}

/** Playwright's Chromium on this machine's browser, with the flags above. */
export async function launchChromium(options = {}) {
  const { chromium } = await import('@playwright/test')
  return chromium.launch({ executablePath: chromePath, ...options, args: [...chromeFlags, ...(options.args ?? [])] })
}
