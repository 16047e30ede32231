import { createFileRoute } from '@tanstack/react-router'
import { MemoryModelCard } from '@/client/features/memory-model/memory-model-card'
import { ProgressPage } from '@/client/features/progress/progress-page'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/progress')({
  beforeLoad: guardsFor('/progress'),
  component: withQueries(Progress),
})

/** The learner's figures, then their memory model. */
function Progress() {
  return <ProgressPage memoryModel={<MemoryModelCard />} />
}
