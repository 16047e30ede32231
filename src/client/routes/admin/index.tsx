import { createFileRoute } from '@tanstack/react-router'
import { OverviewPage } from '@/client/features/admin/overview/overview-page'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/admin/')({
  beforeLoad: guardsFor('/admin'),
  component: withQueries(OverviewPage),
})
