import { createFileRoute } from '@tanstack/react-router'
import { PendingPage } from '../../../features/pages/pending-page'
import { guardsFor } from '../../../lib/guards'

export const Route = createFileRoute('/admin/language-levels/')({
  beforeLoad: guardsFor('/admin/language-levels'),
  component: () => <PendingPage title={(t) => t.levels} />,
})
