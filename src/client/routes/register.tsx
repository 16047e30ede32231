import { createFileRoute } from '@tanstack/react-router'
import { RegisterPage } from '../features/auth/register-page'
import { guardsFor } from '../lib/guards'
import { withQueries } from '../lib/query-client'

export const Route = createFileRoute('/register')({
  beforeLoad: guardsFor('/register'),
  component: withQueries(RegisterPage),
})
