import { Outlet, createRootRouteWithContext } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { CommandPaletteHost } from '@/client/features/command-palette/palette-host'
import { openPalette } from '@/client/features/command-palette/palette-state'
import { NotFoundFallback, RouteErrorFallback } from '@/client/features/errors/fallbacks'
import { AppLayout } from '@/client/features/layout/app-layout'
import type { AuthContext } from '@/client/lib/auth'

export interface RouterContext {
  auth: AuthContext
}

/** The layout around every page, with the command palette its search button opens. */
function Shell({ children }: { children: ReactNode }) {
  return (
    <AppLayout onSearch={openPalette} search={<CommandPaletteHost />}>
      {children}
    </AppLayout>
  )
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <Shell>
      <Outlet />
    </Shell>
  ),
  // An error in the root itself still shows inside the layout.
  errorComponent: (props) => (
    <Shell>
      <RouteErrorFallback {...props} />
    </Shell>
  ),
  notFoundComponent: NotFoundFallback,
})
