import { createFileRoute } from '@tanstack/react-router'
import { DashboardPage } from '../features/dashboard/dashboard-page'
import { guardsFor } from '../lib/guards'

export const Route = createFileRoute('/dashboard')({
  beforeLoad: guardsFor('/dashboard'),
  component: DashboardPage,
})
