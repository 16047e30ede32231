import { createFileRoute } from '@tanstack/react-router'
import { PendingPage } from '../features/pages/pending-page'
import { guardsFor } from '../lib/guards'
import { redirectSearch } from '../lib/redirect'

export const Route = createFileRoute('/login')({
  validateSearch: redirectSearch,
  beforeLoad: guardsFor('/login'),
  component: () => <PendingPage title={(t) => t.login} />,
})
