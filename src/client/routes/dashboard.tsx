import { createFileRoute } from '@tanstack/react-router'
import { DashboardPage } from '../features/dashboard/dashboard-page'
import { guardsFor } from '../lib/guards'
import { learnerProfileQuery, orderedLevelsQuery } from '../lib/levels-api'

export const Route = createFileRoute('/dashboard')({
  beforeLoad: guardsFor('/dashboard'),
  // Both reads start with the navigation; the page shows its skeleton until they arrive.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(learnerProfileQuery())
    void context.queryClient.prefetchQuery(orderedLevelsQuery())
  },
  component: DashboardPage,
})
