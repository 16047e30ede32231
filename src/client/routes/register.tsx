import { createFileRoute } from '@tanstack/react-router'
import { RegisterPage } from '@/client/features/auth/register-page'
import { loadProviderSignIn } from '@/client/features/auth/provider-sign-in'
import { guardsFor } from '@/client/lib/guards'
import { redirectSearch } from '@/client/lib/redirect'

export const Route = createFileRoute('/register')({
  // Kept for a provider sign-in started here, and for the link to /login.
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => redirectSearch(search),
  beforeLoad: guardsFor('/register'),
  loader: loadProviderSignIn,
  component: RegisterPage,
})
