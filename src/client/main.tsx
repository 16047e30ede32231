import './styles.css'
import { RouterProvider, createRouter } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { NotFoundFallback, RouteErrorFallback } from './features/errors/fallbacks'
import { type AuthEvent, authContext, currentUser, keepSessionFresh, loadSession, onAuthStateChange } from './lib/auth'
import { initI18n } from './lib/i18n'
import { appMessages } from './lib/messages'
import { manageFocus } from './lib/route-focus'
import { loadRuntimeConfig } from './lib/runtime-config'
import { routeTree } from './routeTree.gen'

export const router = createRouter({
  routeTree,
  context: { auth: authContext },
  defaultPreload: 'intent',
  defaultErrorComponent: RouteErrorFallback,
  defaultNotFoundComponent: NotFoundFallback,
  scrollRestoration: true,
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}

async function start() {
  const root = document.getElementById('root')
  if (!root) throw new Error('No #root element')
  // Both are waited for, so that a failed configuration is still reported in the user's language.
  const failed = (await Promise.allSettled([loadRuntimeConfig(), initI18n()])).find(
    (result) => result.status === 'rejected',
  )
  if (failed) {
    const error: unknown = failed.reason
    // Nothing of the app can run; say so plainly (no HTML injection). The English base words
    // stand in when the translations are what failed to load.
    root.textContent = appMessages
      .get()
      .startFailed({ reason: error instanceof Error ? error.message : String(error) })
    throw error
  }
  // Who is signed in, for the header of every page (guarded pages wait for the same answer).
  loadSession().catch(() => currentUser.set(null))
  keepSessionFresh()
  // A sign-in, sign-out or change of the user (here or in another tab) runs the guards of the
  // current page again.
  const rerunGuards: ReadonlySet<AuthEvent> = new Set(['SIGNED_IN', 'SIGNED_OUT', 'USER_UPDATED'])
  onAuthStateChange((event) => {
    if (rerunGuards.has(event)) void router.invalidate()
  })
  manageFocus(router)
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  )
}

void start()
