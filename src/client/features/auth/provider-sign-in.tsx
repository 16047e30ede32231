import { useStore } from '@nanostores/react'
import { useSearch } from '@tanstack/react-router'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { authApi } from '@/client/lib/auth-api'
import { errorMessage } from '@/client/lib/error-message'
import { apiErrorMessages } from '@/client/lib/messages'
import { useProviderRedirect } from '@/client/lib/provider-redirect'
import { runtimeConfig } from '@/client/lib/runtime-config'
import { authMessages } from './messages'

/**
 * Where a provider sends the browser back: `/login`, which goes on to `?redirect=` once signed in,
 * or explains the `?error=` the provider came back with. Absolute, as better-auth wants it.
 */
function landingUrl(redirect: string | undefined): string {
  const url = new URL('/login', window.location.origin)
  if (redirect) url.searchParams.set('redirect', redirect)
  return url.toString()
}

/**
 * "Continue with {name}" for each provider the server has, under an "or"; nothing at all when
 * there is none. The browser leaves for the provider (it is another site: no client-side route).
 */
export function ProviderSignIn() {
  const t = useStore(authMessages)
  const errorTexts = useStore(apiErrorMessages)
  const { providers } = runtimeConfig()
  // `/login` and `/register` both keep `?redirect=` (validated by their routes).
  const { redirect } = useSearch({ strict: false })
  const start = useProviderRedirect((provider: string) =>
    authApi.signInWithProvider(provider, landingUrl(redirect), landingUrl(redirect)),
  )

  if (providers.length === 0) return null
  return (
    <div className="grid gap-3">
      <p className="flex items-center gap-3 text-sm text-muted-foreground">
        <span aria-hidden="true" className="h-px flex-1 bg-border" />
        {t.or}
        <span aria-hidden="true" className="h-px flex-1 bg-border" />
      </p>
      {providers.map((provider) => (
        <Button
          key={provider.id}
          variant="outline"
          className="h-auto min-h-10 py-2 whitespace-normal"
          disabled={start.leaving}
          onClick={() => start.start(provider.id)}
        >
          {start.leaving && start.target === provider.id
            ? t.openingProvider({ name: provider.name })
            : t.continueWith({ name: provider.name })}
        </Button>
      ))}
      {start.error && <Alert variant="error">{errorMessage(start.error, errorTexts)}</Alert>}
    </div>
  )
}
