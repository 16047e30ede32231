import { type RouterHistory, createRouter } from '@tanstack/react-router'
import { NotFoundFallback, RouteErrorFallback } from './features/errors/fallbacks'
import type { AuthContext } from './lib/auth'
import { routeTree } from './routeTree.gen'

/**
 * The app's router: one in the browser (main.tsx) and one per page the server renders
 * (entry-server.tsx, on a memory history), with the same routes and options so that both render
 * the same page.
 */
export function createAppRouter(options: { auth: AuthContext; history?: RouterHistory }) {
  const onServer = options.history !== undefined
  return createRouter({
    routeTree,
    context: { auth: options.auth },
    ...(options.history ? { history: options.history } : {}),
    defaultPreload: 'intent',
    defaultErrorComponent: RouteErrorFallback,
    defaultNotFoundComponent: NotFoundFallback,
    // In the browser. On the server the router would write its restoring script into the page
    // (an inline script the CSP refuses, which the browser's render does not have).
    scrollRestoration: !onServer,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
