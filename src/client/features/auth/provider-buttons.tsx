import { useStore } from '@nanostores/react'
import { useSearch } from '@tanstack/react-router'
import { useCallback, useState } from 'react'
import { PROVIDER_FORM_PATH } from '@/shared/auth'
import { Button } from '@/client/components/ui/button'
import { useBackFromProvider } from '@/client/lib/provider-redirect'
import { runtimeConfig } from '@/client/lib/runtime-config'
import { authMessages } from './messages'

/**
 * "Continue with {name}" for each provider the server has (some), under an "or". Each is an HTML
 * form the server answers with the redirect to the provider (or back to `/login?error=` with what
 * went wrong): a press works before the app has started and without scripts, so the page's inline
 * script lets it through (`data-native-submit`, index.html).
 */
export default function ProviderButtons() {
  const t = useStore(authMessages)
  const { providers } = runtimeConfig()
  // `/login` and `/register` both keep `?redirect=` (validated by their routes).
  const { redirect } = useSearch({ strict: false })
  const [leavingFor, setLeavingFor] = useState<string>()
  useBackFromProvider(useCallback(() => setLeavingFor(undefined), []))

  return (
    <div className="grid gap-3">
      <p className="flex items-center gap-3 text-sm text-muted-foreground">
        <span aria-hidden="true" className="h-px flex-1 bg-border" />
        {t.or}
        <span aria-hidden="true" className="h-px flex-1 bg-border" />
      </p>
      {providers.map((provider) => (
        <form
          key={provider.id}
          method="post"
          action={PROVIDER_FORM_PATH}
          data-native-submit=""
          className="grid"
          onSubmit={(event) => {
            // One press, one request: the page is leaving.
            if (leavingFor) event.preventDefault()
            else setLeavingFor(provider.id)
          }}
        >
          <input type="hidden" name="provider" value={provider.id} />
          {redirect && <input type="hidden" name="redirect" value={redirect} />}
          <Button
            type="submit"
            variant="outline"
            className="h-auto min-h-10 py-2 whitespace-normal"
            aria-disabled={leavingFor !== undefined}
          >
            {leavingFor === provider.id
              ? t.openingProvider({ name: provider.name })
              : t.continueWith({ name: provider.name })}
          </Button>
        </form>
      ))}
    </div>
  )
}
