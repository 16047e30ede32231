// How every browser of the project's tests and benchmarks starts: Debian's Chromium (override with
// CHROME_PATH), with the flags this machine needs. Without the background-networking ones Chromium
// keeps trying to reach Google's hosts, which the machine refuses.

export const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium'

export const chromeFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
