import { type ErrorComponentProps, useLocation } from '@tanstack/react-router'
import { Suspense, lazy } from 'react'
import { reloadOnceFor } from '@/client/lib/chunk-reload'
import { describeError } from '@/client/lib/http-error'

// Loaded only when an error happens (it carries the bot detection).
const ErrorScreen = lazy(() => import('./error-screen'))

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
