import { expect } from 'vitest'
import { readOutbox } from '@/server/mail/index'
import type { TestServer } from './server'

/** A browser-like client: sends the app's Origin and keeps the cookies the server sets. */
export class Client {
  readonly cookies = new Map<string, string>()
  constructor(
    readonly server: TestServer,
    readonly origin = server.url,
    /** Sent with every request, e.g. an X-Forwarded-For of its own. */
    readonly headers: Record<string, string> = {},
  ) {}

  async request(method: string, pathname: string, body?: unknown, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(`${this.server.url}${pathname}`, {
      method,
      headers: {
        Origin: this.origin,
        ...this.headers,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(this.cookies.size > 0 ? { Cookie: this.cookieHeader() } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      ...init,
    })
    this.keepCookies(response)
    return response
  }

  /** The Cookie header of what the client holds. */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  /** Keeps what the answer sets, and forgets what it expires, as a browser would. */
  keepCookies(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';')
      const [name = '', value = ''] = pair.split('=')
      if (/Max-Age=0\b/i.test(header) || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
}

/** The link of the last verification email to `email` in the outbox of `dataDir`. */
export async function verificationLink(dataDir: string, email: string): Promise<URL> {
  const [mail] = (await readOutbox(dataDir, { to: email, kind: 'verify-email' })).slice(-1)
  expect(mail, `a verification email to ${email}`).toBeDefined()
  return new URL(mail?.link ?? '')
}

/** Registers an account and follows its emailed link; the client is then signed in. */
export async function registerAndVerify(
  client: Client,
  dataDir: string,
  account: { name?: string; email: string; password: string },
) {
  const registered = await client.request('POST', '/api/auth/sign-up/email', {
    name: account.name ?? 'Ada Lovelace',
    ...account,
  })
  expect(registered.status).toBe(200)
  const link = await verificationLink(dataDir, account.email)
  const verified = await client.request(
    'GET',
    `/api/auth/verify-email?token=${encodeURIComponent(link.searchParams.get('token') ?? '')}`,
  )
  expect(verified.status).toBe(200)
}

/** The signed-in user as the database has it now (not the up-to-60 s cached copy). */
export async function freshUser(client: Client): Promise<{ email: string; role: string } | null> {
  const response = await client.request('GET', '/api/auth/get-session?disableCookieCache=true')
  const body = (await response.json()) as { user: { email: string; role: string } } | null
  return body?.user ?? null
}
