import { createFileRoute } from '@tanstack/react-router'
import { AssessmentPage } from '@/client/features/assessment/assessment-page'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/assessment')({
  // `?again=1` (the dashboard's "Take it again"): the start, not the latest result.
  validateSearch: (search: Record<string, unknown>): { again?: 1 } =>
    search.again === 1 || search.again === '1' ? { again: 1 } : {},
  beforeLoad: guardsFor('/assessment'),
  component: withQueries(Assessment),
})

function Assessment() {
  const { again } = Route.useSearch()
  return <AssessmentPage again={again === 1} />
}
