import { createFileRoute } from '@tanstack/react-router'
import { LoginPage } from '@/client/features/auth/login-page'
import type { SignInMethod } from '@/client/features/auth/sign-in'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'
import { redirectSearch } from '@/client/lib/redirect'

const methods: readonly SignInMethod[] = ['code', 'recovery']

export const Route = createFileRoute('/login')({
  validateSearch: (search: Record<string, unknown>): { redirect?: string; method?: SignInMethod } => {
    const method = methods.find((known) => known === search.method)
    return { ...redirectSearch(search), ...(method ? { method } : {}) }
  },
  beforeLoad: guardsFor('/login'),
  component: withQueries(Login),
})

function Login() {
  const { method } = Route.useSearch()
  return <LoginPage key={method} method={method ?? 'password'} />
}
