import { createFileRoute } from '@tanstack/react-router'
import { SharedStatePage } from '@/client/features/demo/shared-state-page'

export const Route = createFileRoute('/shared-state-about')({
  component: () => <SharedStatePage variant="about" />,
})
