import { createFileRoute } from '@tanstack/react-router'
import { PracticePage } from '@/client/features/practice/practice-page'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/practice')({
  beforeLoad: guardsFor('/practice'),
  component: withQueries(PracticePage),
})
