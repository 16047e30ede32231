import { createFileRoute } from '@tanstack/react-router'
import { PendingPage } from '../features/pages/pending-page'
import { guardsFor } from '../lib/guards'

export const Route = createFileRoute('/account')({
  beforeLoad: guardsFor('/account'),
  component: () => <PendingPage title={(t) => t.account} />,
})
