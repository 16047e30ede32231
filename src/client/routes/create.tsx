import { createFileRoute } from '@tanstack/react-router'
import { CreateLevelPage } from '@/client/features/admin/levels/create-level-page'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/create')({
  beforeLoad: guardsFor('/create'),
  component: withQueries(CreateLevelPage),
})
