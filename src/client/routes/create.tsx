import { createFileRoute } from '@tanstack/react-router'
import { PendingPage } from '../features/pages/pending-page'
import { guardsFor } from '../lib/guards'

export const Route = createFileRoute('/create')({
  beforeLoad: guardsFor('/create'),
  component: () => <PendingPage title={(t) => t.create} />,
})
