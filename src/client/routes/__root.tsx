import { Outlet, createRootRouteWithContext } from '@tanstack/react-router'
import { NotFoundFallback, RouteErrorFallback } from '@/client/features/errors/fallbacks'
import { AppLayout } from '@/client/features/layout/app-layout'
import type { AuthContext } from '@/client/lib/guards'

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
