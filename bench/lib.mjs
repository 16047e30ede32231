// The benchmark scripts' helpers, by subject (bench/lib/): the server, its build and clean-up;
// a signed-in account; wrk; figures and printing. The browser and the server process itself are
// started as the tests and scripts start them (scripts/chromium.mjs, scripts/lib/server.mjs).
// Node ESM, no build step: run the scripts with `node bench/<name>.mjs` after `npm run build`.
export { chromeFlags, chromePath, desktopUserAgent, launchChromium } from '../scripts/chromium.mjs'
export * from './lib/accounts.mjs'
export * from './lib/report.mjs'
export * from './lib/server.mjs'
export * from './lib/wrk.mjs'
