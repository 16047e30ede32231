// A signed-in account (bench/auth.mjs, bench/api.mjs, scripts/screenshots.mjs). The server must run
// with APP_URL set to its own address (in production better-auth refuses a POST from any other
// Origin) and with a DATA_DIR, whose outbox holds the verification email.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

export const tokenCookie = 'lingua.session_token'
export const cacheCookie = 'lingua.session_data'

export const cookieString = (cookies) =>
  Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ')

/** The cookies a response sets, by name (`''` for one it deletes). */
export const responseCookies = (response) =>
  Object.fromEntries(response.headers.getSetCookie().map((h) => h.split(';')[0].split(/=(.*)/s, 2)))

/**
 * A request as the app's own page would send it; resolves to the JSON answer and the cookies it set.
 * Throws unless it answers 2xx (200, or 201 for what it made).
 */
export async function appRequest(server, method, pathname, { body, cookies = {} } = {}) {
  const cookie = cookieString(cookies)
  const response = await fetch(server.url + pathname, {
    method,
    headers: {
      Origin: server.url,
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
    redirect: 'manual',
  })
  const text = await response.text()
  const setCookies = responseCookies(response)
  if (response.status < 200 || response.status > 299) throw new Error(`${method} ${pathname} answered ${response.status}: ${text}`)
  return { json: text ? JSON.parse(text) : null, setCookies }
}

/** The token of the newest verification email to `email` (the mailer writes the outbox as JSON files). */
export async function verificationToken(dataDir, email) {
  const dir = path.join(dataDir, 'outbox')
  for (let attempt = 0; attempt < 100; attempt++) {
    const names = (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.json') && !n.startsWith('.'))
    const mails = await Promise.all(names.sort().map(async (n) => JSON.parse(await readFile(path.join(dir, n), 'utf8'))))
    const mail = mails.filter((m) => m.kind === 'verify-email' && m.to === email).at(-1)
    if (mail) return new URL(mail.link).searchParams.get('token')
    await sleep(50)
  }
  throw new Error(`no verification email to ${email} in ${dir}`)
}

/**
 * Sign-up (`{ name, email, password }`), then the emailed link, which signs in. Resolves to the
 * session cookies (the token and the 60 s cache cookie).
 */
export async function registerAndVerify(server, account) {
  await appRequest(server, 'POST', '/api/auth/sign-up/email', { body: account })
  const token = await verificationToken(server.dataDir, account.email)
  const { setCookies } = await appRequest(server, 'GET', `/api/auth/verify-email?token=${encodeURIComponent(token)}`)
  if (!setCookies[tokenCookie]) throw new Error('the verification link set no session cookie')
  return setCookies
}

/**
 * Checks that `cookies` give `email`'s session (a missing session is a 200 `null`, which wrk would
 * count as a success). `cached`: better-auth answered from the cache cookie (so set no new one).
 * Resolves to the cookies the answer set: with the token only, a fresh cache cookie.
 */
export async function checkSession(server, cookies, email, cached) {
  const { json, setCookies } = await appRequest(server, 'GET', '/api/auth/get-session', { cookies })
  if (json?.user?.email !== email) throw new Error(`get-session with ${Object.keys(cookies)} gave no session`)
  if (cached === Boolean(setCookies[cacheCookie])) {
    throw new Error(`get-session ${cached ? 'did not answer from' : 'answered from'} the cache cookie`)
  }
  return setCookies
}
