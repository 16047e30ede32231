import { createFileRoute } from '@tanstack/react-router'
import { PendingPage } from '../features/pages/pending-page'
import { guardsFor } from '../lib/guards'

export const Route = createFileRoute('/register')({
  beforeLoad: guardsFor('/register'),
  component: () => <PendingPage title={(t) => t.register} />,
})
