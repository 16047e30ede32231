import { useStore } from '@nanostores/react'
import { type ErrorComponentProps, useLocation, useRouter } from '@tanstack/react-router'
import { type ComponentType, Suspense, lazy, useEffect } from 'react'
import { PageHeading } from '@/client/components/ui/page-heading'
import { isOfflineChunkError, reloadOnceFor } from '@/client/lib/chunk-reload'
import { offlineMessages } from '@/client/lib/messages'
import { usePageTitle } from '@/client/lib/page-title'
import { describeError } from '@/client/lib/http-error'
import { ERROR_HEADING_ID, type ErrorScreenProps } from './screen-props'

// Loaded only when an error happens (it carries the bot detection).
let loaded: ComponentType<ErrorScreenProps> | undefined
const load = () =>
  import('./error-screen').then((module) => {
    loaded = module.default
    return module
  })
const LazyErrorScreen = lazy(load)

function ErrorScreen(props: ErrorScreenProps) {
  const Screen = loaded ?? LazyErrorScreen
  return <Screen {...props} />
}

/**
 * Loads the error screen first when the server's page in `root` is that screen. Still loading,
 * React would take the page over with that part as the server's HTML, its buttons answering only
 * later, after the app said it had started; rendering the page afresh, it would blank the screen
 * until the part arrived.
 */
export function loadErrorScreenIn(root: HTMLElement): Promise<unknown> | undefined {
  return root.querySelector(`#${ERROR_HEADING_ID}`) ? load() : undefined
}

/**
 * A page whose code could not load while offline (chunk-reload.ts): said in the start chunk's own
 * words (the error screen is a chunk too), and tried again once the browser is back online.
 */
function OfflinePage({ reset }: { reset: () => void }) {
  const t = useStore(offlineMessages)
  const router = useRouter()
  usePageTitle(t.title)
  useEffect(() => {
    const retry = () => {
      reset()
      void router.invalidate()
    }
    window.addEventListener('online', retry)
    return () => window.removeEventListener('online', retry)
  }, [reset, router])
  return (
    <div className="mx-auto max-w-xl py-12 text-center">
      <PageHeading className="text-2xl font-semibold">{t.title}</PageHeading>
      <p className="mt-3 text-muted-foreground">{t.lead}</p>
    </div>
  )
}

/** Any error thrown while loading or rendering a route. */
export function RouteErrorFallback({ error, reset }: ErrorComponentProps) {
  if (isOfflineChunkError(error)) return <OfflinePage reset={reset} />
  if (reloadOnceFor(error)) return null
  const { status, message, localized } = describeError(error)
  return (
    <Suspense fallback={null}>
      <ErrorScreen status={status} message={message} localized={localized} error={error} />
    </Suspense>
  )
}

/** A path that matches no route. */
export function NotFoundFallback() {
  const { pathname } = useLocation()
  return (
    <Suspense fallback={null}>
      <ErrorScreen
        status={404}
        message={`Page not found: ${pathname}`}
        localized={{ key: 'pageNotFound', path: pathname }}
      />
    </Suspense>
  )
}
