import { createFileRoute } from '@tanstack/react-router'
import { PendingPage } from '../features/pages/pending-page'
import { guardsFor } from '../lib/guards'

export const Route = createFileRoute('/dashboard')({
  beforeLoad: guardsFor('/dashboard'),
  component: () => <PendingPage title={(t) => t.dashboard} />,
})
