import { createFileRoute } from '@tanstack/react-router'
import { CreateLevelPage } from '@/client/features/admin/levels/create-level-page'
import { guardsFor } from '@/client/lib/guards'

export const Route = createFileRoute('/create')({
  beforeLoad: guardsFor('/create'),
  component: CreateLevelPage,
})
