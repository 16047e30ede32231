import { createFileRoute } from '@tanstack/react-router'
import { HomePage } from '@/client/features/home/home-page'
import { fetchOrderedLevels } from '@/client/api/levels'
import { takeSeededLevels } from '@/client/lib/rendered-state'
import { withReadRetries } from '@/client/lib/retry'

export const Route = createFileRoute('/')({
  // Not awaited: the page renders at once and the level list waits for its data (deferred). A
  // plain read, not a cached query: React Query stays off the first page, and the list is read
  // afresh on every visit.
  // The page the server rendered shows the levels it was rendered with (lib/rendered-state.ts).
  loader: ({ abortController }) => ({
    levels: takeSeededLevels() ?? withReadRetries(() => fetchOrderedLevels(abortController.signal)),
  }),
  component: function Home() {
    return <HomePage levels={Route.useLoaderData().levels} />
  },
})
