import { createFileRoute } from '@tanstack/react-router'
import { LoginPage } from '@/client/features/auth/login-page'
import type { SignInMethod } from '@/client/features/auth/sign-in'
import { loadProviderSignIn } from '@/client/features/auth/provider-sign-in'
import { guardsFor } from '@/client/lib/guards'
import { providerErrorSearch, useProviderError, withoutProviderError } from '@/client/lib/provider-errors'
import { redirectSearch } from '@/client/lib/redirect'

const methods: readonly SignInMethod[] = ['code', 'recovery']

interface LoginSearch {
  redirect?: string
  method?: SignInMethod
  /** Why a provider sign-in came back failed (better-auth's code). */
  error?: string
  /** A provider sign-in of an account with two factors: the second one is asked for here. */
  step?: 'second-factor'
}

export const Route = createFileRoute('/login')({
  validateSearch: (search: Record<string, unknown>): LoginSearch => {
    const method = methods.find((known) => known === search.method)
    return {
      ...redirectSearch(search),
      ...(method ? { method } : {}),
      ...providerErrorSearch(search),
      ...(search.step === 'second-factor' ? { step: 'second-factor' as const } : {}),
    }
  },
  beforeLoad: guardsFor('/login'),
  loader: loadProviderSignIn,
  component: Login,
})

function Login() {
  const { method, error, step } = Route.useSearch()
  const navigate = Route.useNavigate()
  const providerError = useProviderError(error, () =>
    navigate({ search: withoutProviderError, replace: true, resetScroll: false }),
  )
  return <LoginPage key={method} method={method ?? 'password'} providerError={providerError} step={step} />
}
