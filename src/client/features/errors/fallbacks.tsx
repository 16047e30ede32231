import { type ErrorComponentProps, useLocation } from '@tanstack/react-router'
import { type ComponentType, Suspense, lazy } from 'react'
import { reloadOnceFor } from '@/client/lib/chunk-reload'
import { describeError } from '@/client/lib/http-error'
import type { ErrorScreenProps } from './error-screen'

/** The error screen's heading, also how a page the server rendered shows that it is that screen. */
export const ERROR_HEADING_ID = 'error-heading'

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

/** Any error thrown while loading or rendering a route. */
export function RouteErrorFallback({ error }: ErrorComponentProps) {
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
