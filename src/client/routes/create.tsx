import { createFileRoute } from '@tanstack/react-router'
import { CreateLevelPage } from '../features/admin/create-level-page'
import { guardsFor } from '../lib/guards'
import { withQueries } from '../lib/query-client'

export const Route = createFileRoute('/create')({
  beforeLoad: guardsFor('/create'),
  component: withQueries(CreateLevelPage),
})
