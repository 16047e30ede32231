import { RouterProvider, createMemoryHistory } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { prerenderToNodeStream } from 'react-dom/static'
import { text } from 'node:stream/consumers'
import { currentUser } from './lib/auth'
import { renderIn } from './lib/i18n'
import { type RenderedState, seedLevels } from './lib/rendered-state'
import { setRuntimeConfig } from './lib/runtime-config'
import { renderWithTheme } from './lib/theme'
import { createAppRouter } from './router'

/**
 * Renders one page for a visitor, as the browser's first render will (main.tsx hydrates it): the
 * server's page renderer (src/server/http/pages.ts) calls it, one page at a time (the language,
 * colour mode and configuration are the module-wide stores the components read).
 *
 * A guarded page sends a visitor to sign in: the HTML is then that of the page the browser's
 * router will show (`/login?redirect=…`).
 */
export async function renderPage(url: string, state: RenderedState): Promise<{ html: string; status: number }> {
  setRuntimeConfig(state.config)
  await renderIn(state.language)
  renderWithTheme(state.theme)
  currentUser.set(null)
  const nobody = () => Promise.resolve(null)
  const visitor = { getUser: nobody, getFreshUser: nobody }

  let href = url
  for (let hops = 0; hops < 3; hops++) {
    seedLevels(state.levels)
    const router = createAppRouter({ auth: visitor, history: createMemoryHistory({ initialEntries: [href] }) })
    await router.load()
    // What the router's own request handler reads (@tanstack/router-core/ssr): a redirect, or the
    // page and its status (404 for a path of no route).
    const result = router._serverResult
    if (result?.type === 'redirect') {
      href = result.redirect.options.href ?? '/'
      continue
    }
    // Waits for what suspends (a lazy part of the page): the HTML holds all of it in place, no
    // fallback, and no part is moved out to be put in by an inline script (React does so for a
    // part larger than `progressiveChunkSize`; the CSP would refuse the script).
    const { prelude } = await prerenderToNodeStream(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
      { progressiveChunkSize: Number.POSITIVE_INFINITY },
    )
    return { html: await text(prelude), status: result?.type === 'render' ? result.status : 200 }
  }
  throw new Error(`Too many redirects rendering ${url}`)
}
