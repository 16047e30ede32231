import { createFileRoute } from '@tanstack/react-router'
import { PendingPage } from '../features/pages/pending-page'

export const Route = createFileRoute('/confirm')({
  component: () => <PendingPage title={(t) => t.confirm} />,
})
