import { createFileRoute } from '@tanstack/react-router'
import { CreateLevelPage } from '../features/admin/create-level-page'
import { guardsFor } from '../lib/guards'

export const Route = createFileRoute('/create')({
  beforeLoad: guardsFor('/create'),
  component: CreateLevelPage,
})
