import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Logger } from 'pino'
import type { ClientConfig } from '@/shared/client-config'
import type { LanguageLevel } from '@/shared/levels'
import {
  LANGUAGE_COOKIE,
  type Language,
  THEME_COOKIE,
  type ThemePreference,
  acceptedLanguages,
  detectLanguage,
  themePreferenceOf,
} from '@/shared/preferences'
import { RENDERED_STATE_ID, type RenderedState } from '@/shared/rendered-state'
import { type Encoded, encode } from './encoding'
import type { AppShell } from './static'

/** What the server bundle of the client (src/client/entry-server.tsx) exports. */
interface PageModule {
  renderPage: (url: string, state: RenderedState) => Promise<{ html: string }>
}

export interface RenderedPage {
  /** The HTML, compressed once for every time it is sent. */
  content: Encoded
  etag: string
}

/** Different pages (path and query, language, colour mode) kept at most; the oldest goes first. */
const MAX_PAGES = 500

/**
 * Renders waiting at most: past that (a flood of addresses never asked for), a page not kept is
 * answered with the app shell, which costs nothing, rather than queued.
 */
const MAX_WAITING_RENDERS = 16

/** The value of cookie `name` in a Cookie header. */
function cookieOf(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const index = part.indexOf('=')
    if (index > 0 && part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim())
      } catch {
        return undefined
      }
    }
  }
  return undefined
}

/** JSON inside `<script type="application/json">`: nothing in it can end the element. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')

/**
 * The app shell with its stylesheets in the page (`<style>`, which the CSP allows as it does the
 * styles Radix adds): a first visit paints with the HTML alone, without waiting for the stylesheet
 * behind the scripts it is preloaded with.
 */
function inlineStyles(shell: string, clientDir: string): string {
  return shell.replace(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g, (link, href: string) => {
    const file = path.join(clientDir, href)
    return existsSync(file) ? `<style>${readFileSync(file, 'utf8').replace(/<\/style/gi, '<\\/style')}</style>` : link
  })
}

/** The app shell with a rendered page in it, in its language and colour mode. */
function fillShell(shell: string, body: string, state: RenderedState): string {
  const mode = state.theme === 'system' ? '' : ` class="${state.theme}"`
  return shell
    .replace(/<html lang="[^"]*"/, `<html lang="${state.language}"${mode}`)
    // The configuration is in the page: no request for it.
    .replace(/\s*<link rel="preload" href="\/config\.json"[^>]*>/, '')
    .replace(
      '<div id="root"></div>',
      `<div id="root">${body}</div><script type="application/json" id="${RENDERED_STATE_ID}">${scriptJson(state)}</script>`,
    )
}

/**
 * The pages of a visitor, rendered by the server with their content (docs/decisions/0014): the
 * home page with its levels, the about, sign-in and registration pages, the 404 screen, and a
 * guarded page as the sign-in page it sends a visitor to. In the visitor's language (cookie, then
 * Accept-Language) and colour mode (cookie). Kept until a level changes on any instance (the
 * level cache's generation moves on); not kept while the instance cannot hear the changes.
 *
 * A request with a session cookie gets the app shell, as before: the browser renders the page of
 * whoever is signed in.
 */
export function pageRenderer(options: {
  /** The server bundle of the client (dist/ssr/entry-server.js). */
  entry: string
  shell: AppShell
  /** Where the shell's files are (its stylesheet is put in the pages). */
  clientDir: string
  config: ClientConfig
  /** better-auth's session cookie names (with and without `__Secure-`). */
  sessionCookies: readonly string[]
  levels: () => Promise<LanguageLevel[]>
  /** Changes with every level change, and says whether changes are heard (api/levels/cache.ts). */
  changes: { readonly generation: number; readonly hearing: boolean }
  logger: Logger
}) {
  const { entry, config, sessionCookies, levels, changes, logger } = options
  if (!existsSync(entry)) {
    logger.warn({ entry }, 'the server bundle of the client is not built: pages are rendered in the browser only')
    return undefined
  }
  const template = inlineStyles(options.shell.html, options.clientDir)
  let module: Promise<PageModule> | undefined
  const load = () => (module ??= import(pathToFileURL(entry).href) as Promise<PageModule>)
  // Loaded once the start-up's own work is done, ahead of the first page.
  setTimeout(() => {
    load().catch((error: unknown) => logger.error({ err: error, entry }, 'the server bundle of the client could not be loaded'))
  }, 0).unref()
  const kept = new Map<string, { generation: number; page: Promise<RenderedPage> }>()
  // One page at a time: the language, colour mode and configuration are module-wide stores.
  let queue: Promise<unknown> = Promise.resolve()
  let waiting = 0

  const render = async (url: string, language: Language, theme: ThemePreference): Promise<RenderedPage> => {
    waiting++
    try {
      return await renderNow(url, language, theme)
    } finally {
      waiting--
    }
  }
  const renderNow = async (url: string, language: Language, theme: ThemePreference): Promise<RenderedPage> => {
    const { renderPage } = await load()
    // The levels are the home page's (the browser's router reads them for its first page only).
    const home = new URL(url, 'http://page').pathname === '/'
    const state: RenderedState = { language, theme, config, ...(home ? { levels: await levels() } : {}) }
    const run = queue.then(() => renderPage(url, state))
    queue = run.catch(() => undefined)
    const { html } = await run
    const page = fillShell(template, html, state)
    return { content: await encode(Buffer.from(page)), etag: `"${createHash('sha1').update(page).digest('base64url')}"` }
  }

  return {
    /** The page for this request, or undefined when the browser is to render it (signed in). */
    page(request: { url: string; cookie?: string; acceptLanguage?: string }): Promise<RenderedPage> | undefined {
      if (sessionCookies.some((name) => cookieOf(request.cookie, name) !== undefined)) return undefined
      const language = detectLanguage(cookieOf(request.cookie, LANGUAGE_COOKIE), acceptedLanguages(request.acceptLanguage))
      const theme = themePreferenceOf(cookieOf(request.cookie, THEME_COOKIE))
      const key = `${language} ${theme} ${request.url}`
      const { generation, hearing } = changes
      const found = kept.get(key)
      if (found && found.generation === generation) return found.page
      if (waiting >= MAX_WAITING_RENDERS) return undefined
      const page = render(request.url, language, theme)
      if (!hearing) return page
      if (kept.size >= MAX_PAGES) kept.delete(kept.keys().next().value as string)
      kept.set(key, { generation, page })
      // A failure is not kept.
      page.catch(() => {
        if (kept.get(key)?.page === page) kept.delete(key)
      })
      return page
    },
  }
}

export type PageRenderer = NonNullable<ReturnType<typeof pageRenderer>>
