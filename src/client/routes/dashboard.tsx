import { createFileRoute } from '@tanstack/react-router'
import { DashboardPage } from '@/client/features/dashboard/dashboard-page'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/dashboard')({
  beforeLoad: guardsFor('/dashboard'),
  component: withQueries(DashboardPage),
})
