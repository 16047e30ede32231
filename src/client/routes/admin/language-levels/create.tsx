import { createFileRoute } from '@tanstack/react-router'
import { CreateLevelPage } from '@/client/features/admin/levels/create-level-page'
import { guardsFor } from '@/client/lib/guards'

// Guarded by `auth` only (docs/product.md §3): the page itself tells a non-admin they cannot create.
export const Route = createFileRoute('/admin/language-levels/create')({
  beforeLoad: guardsFor('/admin/language-levels/create'),
  component: CreateLevelPage,
})
