import { expect } from 'vitest'

/**
 * A browser at the test OpenID provider (tests/helpers/oidc-provider.ts), with plain fetch: its
 * cookies, its redirects one by one, its login and consent pages filled in.
 */

/** The cookies of one browser: enough for the provider's (no domains, paths ignored). */
export class CookieJar {
  private readonly cookies = new Map<string, string>()

  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';')
      const name = pair.slice(0, pair.indexOf('=')).trim()
      const value = pair.slice(pair.indexOf('=') + 1).trim()
      const expired = attributes.some((attribute) => {
        const [key = '', date = ''] = attribute.trim().split('=')
        return key.toLowerCase() === 'expires' && new Date(date).getTime() < Date.now()
      })
      if (expired || !value) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }
}

/** One request as the browser makes it: cookies sent and kept, redirects not followed. */
export async function browse(jar: CookieJar, url: string, form?: Record<string, string>): Promise<Response> {
  const response = await fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      cookie: jar.header(),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form) : undefined,
  })
  jar.store(response)
  return response
}

/** Where a redirect goes, resolved against the URL that answered it. */
export function location(response: Response, base: string): string {
  expect([302, 303], `status of ${base}`).toContain(response.status)
  return new URL(response.headers.get('location') ?? '', base).href
}

/**
 * Follows the provider's redirects from `url`, signing in as `user` on the login page and pressing
 * "Continue" on the consent page — or "[ Cancel ]" on the first page with `cancel` — until it sends
 * the browser back to the client (a URL starting with `redirectUri`): that URL.
 */
export async function signInAtProvider(
  jar: CookieJar,
  url: string,
  redirectUri: string,
  user?: { login: string; password: string },
  options: { cancel?: boolean } = {},
): Promise<URL> {
  let current = url
  for (let step = 0; step < 12; step += 1) {
    if (current.startsWith(redirectUri)) return new URL(current)
    const response = await browse(jar, current)
    if (response.status !== 200) {
      current = location(response, current)
      continue
    }
    const page = await response.text()
    const action = new URL(/<form[^>]*action="([^"]+)"/.exec(page)?.[1] ?? '', current).href
    if (options.cancel) {
      current = location(await browse(jar, `${action}/abort`), action)
    } else if (page.includes('name="login"')) {
      if (!user) throw new Error('the login page, with no user to sign in')
      current = location(await browse(jar, action, { prompt: 'login', ...user }), action)
    } else if (page.includes('>Continue</button>')) {
      current = location(await browse(jar, action, { prompt: 'consent' }), action)
    } else {
      throw new Error(`unexpected page at ${current}: ${page.slice(0, 500)}`)
    }
  }
  throw new Error('too many steps')
}
