import { useEffect } from 'react'
import type { ProviderRedirect } from './auth-api'
import { useAction } from './use-action'

/**
 * A request whose answer sends the browser to a provider's page (signing in, linking): another
 * site, so a page load, not a route. `leaving` holds from the request until the page has gone;
 * `target` is what it was started for. `beforeLeaving` runs once the provider's address is known.
 */
export function useProviderRedirect<T>(
  request: (target: T) => Promise<ProviderRedirect>,
  beforeLeaving?: (target: T) => void,
) {
  const mutation = useAction(request, {
    onSuccess: ({ url }, target) => {
      beforeLeaving?.(target)
      window.location.assign(url)
    },
  })
  useBackFromProvider(mutation.reset)
  return {
    start: mutation.mutate,
    leaving: mutation.isPending || mutation.isSuccess,
    target: mutation.variables,
    error: mutation.error,
  }
}

/**
 * Back from the provider's page with the back button, the page may be the very one left
 * (back/forward cache): `reset` says it is not leaving any more.
 */
export function useBackFromProvider(reset: () => void) {
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset()
    }
    window.addEventListener('pageshow', onPageShow)
    return () => window.removeEventListener('pageshow', onPageShow)
  }, [reset])
}
