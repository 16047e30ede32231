import { createFileRoute } from '@tanstack/react-router'
import { DashboardPage } from '../features/dashboard/dashboard-page'
import { guardsFor } from '../lib/guards'
import { withQueries } from '../lib/query-client'

export const Route = createFileRoute('/dashboard')({
  beforeLoad: guardsFor('/dashboard'),
  component: withQueries(DashboardPage),
})
