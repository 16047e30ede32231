import { RouterProvider } from '@tanstack/react-router'
import { type ReactNode, StrictMode, startTransition, useEffect } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import {
  type AuthEvent,
  authContext,
  currentUser,
  followAccountChange,
  keepSessionFresh,
  loadSession,
  onAuthStateChange,
  startAsVisitor,
} from './lib/auth'
import { loadErrorScreenIn } from './features/errors/fallbacks'
import { keepPagesOffline } from './lib/chunk-reload'
import { sendWaitingAnswers } from './lib/waiting-answers'
import { initI18n, locale } from './lib/i18n'
import { onLive, restartLive, startLive } from './lib/live'
import { appMessages } from './lib/messages'
import { readRenderedState, seedLevels } from './lib/rendered-state'
import { manageFocus } from './lib/route-focus'
import { mounted } from './lib/started'
import { loadRuntimeConfig, setRuntimeConfig } from './lib/runtime-config'
import { themePreference } from './lib/theme'
import { createAppRouter } from './router'

const router = createAppRouter({ auth: authContext })

/** The app's shell has mounted: with the page's heading, the app has started (lib/started.ts). */
function Started({ children }: { children: ReactNode }) {
  useEffect(() => mounted('shell'), [])
  return children
}

async function start() {
  const root = document.getElementById('root')
  if (!root) throw new Error('No #root element')
  // A page the server rendered (a visitor's, docs/decisions/0014) holds what it was rendered with.
  const rendered = readRenderedState()
  if (rendered) setRuntimeConfig(rendered.config)
  // Both are waited for, so that a failed configuration is still reported in the user's language.
  const failed = (await Promise.allSettled([rendered ? undefined : loadRuntimeConfig(), initI18n()])).find(
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
  // Who is signed in, for the header of every page (guarded pages wait for the same answer). The
  // server renders pages only for requests without a session cookie.
  if (rendered) {
    startAsVisitor()
    // For the first page only: a later visit of the home page reads the levels afresh.
    seedLevels(rendered.levels)
    const unsubscribe = router.subscribe('onResolved', () => {
      seedLevels(undefined)
      unsubscribe()
    })
  } else {
    loadSession().catch(() => currentUser.set(null))
  }
  keepSessionFresh()
  keepPagesOffline()
  // Answers graded offline and not sent yet, from whatever page (lib/waiting-answers.ts), by the
  // practice feature's sender: its code loads only when some wait.
  const sender = (userId: string) =>
    import('./features/practice/send-waiting').then((module) => module.sendWaiting(userId))
  const sendWaiting = () => {
    const user = currentUser.get()
    if (user) sendWaitingAnswers(user.id, sender)
  }
  currentUser.subscribe(sendWaiting)
  window.addEventListener('online', sendWaiting)
  // A sign-in, sign-out or change of the user (here or in another tab) runs the guards of the
  // current page again.
  const rerunGuards: ReadonlySet<AuthEvent> = new Set(['SIGNED_IN', 'SIGNED_OUT', 'USER_UPDATED'])
  onAuthStateChange((event) => {
    if (rerunGuards.has(event)) void router.invalidate()
    // The stream hears what its session may hear: opened again as whoever is signed in now.
    if (event === 'SIGNED_IN' || event === 'SIGNED_OUT') restartLive()
  })
  // Live: a change of one's own account (role, access, profile) or the end of this session is
  // read from the server at once; the home page's list follows the levels (pages with cached
  // queries follow through the query cache, lib/query-client.tsx).
  onLive('account', ({ reason }) => {
    // Another session of theirs ending changes only the list of sessions (the query cache).
    if (reason !== 'session') void followAccountChange()
  })
  onLive('session-ended', () => void followAccountChange())
  const reloadHome = () => void router.invalidate({ filter: (match) => match.routeId === '/' })
  onLive('levels', reloadHome)
  onLive('reset', reloadHome)
  startLive()
  manageFocus(router)
  const app = (
    <StrictMode>
      <Started>
        <RouterProvider router={router} />
      </Started>
    </StrictMode>
  )
  // A page the server rendered as the error screen keeps showing it, however it is taken over.
  const errorScreen = loadErrorScreenIn(root)
  // The server's HTML is taken over as it is when this browser renders the same page: same
  // language and colour mode (a choice kept only in localStorage by an earlier version, moved
  // into its cookie by the inline script, differs once: that page is rendered afresh).
  if (rendered && rendered.language === locale.get() && rendered.theme === themePreference()) {
    await Promise.all([router.load(), errorScreen])
    // As the server rendered it: the matches without the Suspense boundary the router adds for
    // pages rendered in the browser only.
    router.ssr = { manifest: undefined }
    // In a transition, React takes the page over in slices of a few milliseconds, yielding to the
    // browser in between, instead of in one long task that would hold back a tap or a keypress.
    startTransition(() => {
      hydrateRoot(root, app)
    })
  } else {
    await errorScreen
    createRoot(root).render(app)
  }
}

// The start waits for the next task: the evaluation of the app's modules and the start's own work
// (the router's first load, the session, the live stream) are then two tasks, each short enough
// not to hold up a tap on a slow phone, instead of one long one.
setTimeout(() => void start(), 0)
