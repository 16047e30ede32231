import { createFileRoute } from '@tanstack/react-router'
import { RegisterPage } from '../features/auth/register-page'
import { guardsFor } from '../lib/guards'

export const Route = createFileRoute('/register')({
  beforeLoad: guardsFor('/register'),
  component: RegisterPage,
})
