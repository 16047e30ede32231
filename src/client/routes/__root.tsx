import { Outlet, createRootRouteWithContext } from '@tanstack/react-router'
import { NotFoundFallback, RouteErrorFallback } from '../features/errors/fallbacks'
import { AppLayout } from '../features/layout/app-layout'
import type { AuthContext } from '../lib/guards'

export interface RouterContext {
  auth: AuthContext
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <AppLayout>
      <Outlet />
    </AppLayout>
  ),
  // An error in the root itself still shows inside the layout.
  errorComponent: (props) => (
    <AppLayout>
      <RouteErrorFallback {...props} />
    </AppLayout>
  ),
  notFoundComponent: NotFoundFallback,
})
