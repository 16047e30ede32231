import { existsSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LanguageLevel } from '@/shared/levels'
import { type AdminWorld, startAdminWorld } from '../helpers/accounts'
import { databaseTargets } from '../helpers/database'
import { expectJson, projectRoot } from '../helpers/server'

/*
 * The pages a visitor's browser gets with their content in the HTML (src/server/http/pages.ts,
 * docs/decisions/0014): read here as the bytes arrive, before any script could run.
 */

const builtClient = path.join(projectRoot, 'dist/client')
const built = existsSync(path.join(builtClient, 'index.html')) && existsSync(path.join(projectRoot, 'dist/ssr/entry-server.js'))

/** A browser's User-Agent (a crawler gets no error screen). */
const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'

/** The page as HTML, and what a person reads of its content: the text of `#root`, tags dropped. */
interface Page {
  status: number
  headers: Headers
  html: string
  /** The opening `<html …>` tag. */
  htmlTag: string
  /** The first `<h1>`'s text. */
  heading: string
  /** The visible text of the page's content. */
  text: string
  /** Whether the page carries the state the browser takes it over with. */
  rendered: boolean
}

const textOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
    .trim()

describe.runIf(built).each(databaseTargets())('the pages the server renders on %s', (target) => {
  let world: AdminWorld
  beforeAll(async () => {
    world = await startAdminWorld(target, 'pages', { CLIENT_DIR: builtClient })
  })
  afterAll(() => world?.stop())

  const get = async (pagePath: string, headers: Record<string, string> = {}): Promise<Page> => {
    const response = await fetch(`${world.server.url}${pagePath}`, { headers: { 'user-agent': browser, ...headers } })
    const html = await response.text()
    const root = /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? ''
    return {
      status: response.status,
      headers: response.headers,
      html,
      htmlTag: /<html[^>]*>/.exec(html)?.[0] ?? '',
      heading: textOf(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(root)?.[1] ?? ''),
      text: textOf(root),
      rendered: html.includes('id="lingua-state"'),
    }
  }

  it.each([
    ['/', 'Learn a language level by level', ['Beginner', 'Proficiency', 'Get started', 'Sign in', 'Register']],
    ['/about', 'About Lingua', ['CEFR']],
    ['/login', 'Sign in', ['Email', 'Password', 'Sign in with a passkey']],
    ['/register', 'Create an account', ['Name', 'Email', 'Password']],
    ['/confirm', 'Open the link from your email', []],
  ])('%s: its heading and text are in the HTML, before any script runs', async (pagePath, heading, texts) => {
    const page = await get(pagePath)
    expect(page.status).toBe(200)
    expect(page.rendered).toBe(true)
    expect(page.heading).toBe(heading)
    for (const text of texts) expect(page.text).toContain(text)
    // The layout around it too: the header's links and the footer.
    expect(page.text).toContain('Skip to content')
    expect(page.text).toMatch(/© \d{4} Lingua/)
  })

  it('writes the 404 screen for a path of no page, with the 404 status', async () => {
    const page = await get('/no-such-page')
    expect(page.status).toBe(404)
    expect(page.text).toContain('Page not found: /no-such-page')
  })

  it('gives a visitor of a guarded page the sign-in page it leads to, with 200', async () => {
    const page = await get('/dashboard')
    expect(page.status).toBe(200)
    expect(page.heading).toBe('Sign in')
    expect(page.html).toContain('"language":"en"')
  })

  it('speaks the language of the cookie, else of Accept-Language, from the first byte', async () => {
    const russian = await get('/about', { 'accept-language': 'de-DE,ru;q=0.8,en;q=0.5' })
    expect(russian.htmlTag).toContain('lang="ru"')
    expect(russian.heading).toBe('О Lingua')
    // The cookie (the language chosen in the app) wins over the browser's list.
    const chosen = await get('/about', { 'accept-language': 'ru', cookie: 'lingua.lang=en' })
    expect(chosen.htmlTag).toContain('lang="en"')
    expect(chosen.heading).toBe('About Lingua')
    // Nothing known: English.
    expect((await get('/about', { 'accept-language': 'de, fr;q=0.5' })).htmlTag).toContain('lang="en"')
  })

  it('is in the colour mode of the cookie; with none, the system’s (no class: the stylesheet follows it)', async () => {
    expect((await get('/', { cookie: 'lingua.theme=dark' })).htmlTag).toMatch(/class="dark"/)
    expect((await get('/', { cookie: 'lingua.theme=light' })).htmlTag).toMatch(/class="light"/)
    expect((await get('/', { cookie: 'lingua.theme=<script>' })).htmlTag).not.toMatch(/class=/)
    expect((await get('/')).htmlTag).not.toMatch(/class=/)
  })

  it('answers a session cookie with the app shell: the browser renders the page of whoever is signed in', async () => {
    const page = await get('/', { cookie: 'lingua.session_token=whatever' })
    expect(page.status).toBe(200)
    expect(page.rendered).toBe(false)
    expect(page.html).toContain('<div id="root"></div>')
  })

  it('varies by cookie and language, revalidates with its ETag, and is compressed', async () => {
    const first = await fetch(`${world.server.url}/about`, { headers: { 'user-agent': browser, 'accept-encoding': 'br' } })
    expect(first.headers.get('content-encoding')).toBe('br')
    expect(first.headers.get('vary')).toBe('Accept-Encoding, Cookie, Accept-Language')
    expect(first.headers.get('cache-control')).toBe('no-cache')
    const etag = first.headers.get('etag') ?? ''
    expect(etag).not.toBe('')
    await first.body?.cancel()
    const again = await fetch(`${world.server.url}/about`, { headers: { 'user-agent': browser, 'if-none-match': etag } })
    expect(again.status).toBe(304)
    // Another language is another page.
    const russian = await fetch(`${world.server.url}/about`, { headers: { 'user-agent': browser, 'accept-language': 'ru' } })
    expect(russian.headers.get('etag')).not.toBe(etag)
    await russian.body?.cancel()
  })

  it('shows the levels as they are after an administrator changes one', async () => {
    const before = await get('/')
    expect(before.text).toContain('Beginner')
    const level = await expectJson<LanguageLevel>(await world.visitor.request('GET', '/api/language-levels/1'))
    await expectJson(
      await world.admin.request('PATCH', '/api/language-levels/1', { name: 'First steps', version: level.version }),
    )
    const after = await get('/')
    expect(after.text).toContain('First steps')
    expect(after.text).not.toContain('Beginner')
    await expectJson(
      await world.admin.request('PATCH', '/api/language-levels/1', { name: 'Beginner', version: level.version + 1 }),
    )
    expect((await get('/')).text).toContain('Beginner')
  })

  it('answers a form sent before the app took the page over with that page again (303), keeping nothing', async () => {
    const sent = await fetch(`${world.server.url}/login?redirect=%2Faccount`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': browser },
      body: 'email=ada%40example.com&password=secret',
      redirect: 'manual',
    })
    expect(sent.status).toBe(303)
    expect(sent.headers.get('location')).toBe('/login?redirect=%2Faccount')
    expect(sent.headers.get('cache-control')).toBe('no-store')
    await sent.body?.cancel()
    // Not a page: as before.
    expect((await fetch(`${world.server.url}/no-such-page`, { method: 'POST' })).status).toBe(404)
  })

  it('keeps the configuration in the page: no request for /config.json', async () => {
    const page = await get('/login')
    expect(page.html).not.toContain('href="/config.json"')
    expect(page.html).toMatch(/"config":\{"apiBaseUrl":"\/api","appName":"Lingua"/)
  })
})
