import { createFileRoute } from '@tanstack/react-router'
import { PendingPage } from '../../../features/pages/pending-page'
import { guardsFor } from '../../../lib/guards'

export const Route = createFileRoute('/admin/language-levels/create')({
  beforeLoad: guardsFor('/admin/language-levels/create'),
  component: () => <PendingPage title={(t) => t.levelCreate} />,
})
