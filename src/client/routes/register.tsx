import { createFileRoute } from '@tanstack/react-router'
import { RegisterPage } from '@/client/features/auth/register-page'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/register')({
  beforeLoad: guardsFor('/register'),
  component: withQueries(RegisterPage),
})
