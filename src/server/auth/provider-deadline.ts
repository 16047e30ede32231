import { isProviderCallback } from './plugins'

/**
 * A provider sign-in's callback waits for the provider (its token endpoint, JWKS, user info) at most
 * `ms`: then the browser is sent back with `?error=provider_timeout` — to `/account` when someone is
 * signed in (they were linking a provider), else to `/login` — instead of a page that never loads.
 * better-auth's own fetches have no time limit; the late answer, if it ever comes, is dropped.
 */
export function withProviderDeadline(
  path: string,
  ms: number,
  appUrl: string,
  isSignedIn: () => Promise<boolean>,
  handle: () => Promise<Response>,
): Promise<Response> {
  if (!isProviderCallback(path.replace(/^\/api\/auth/, ''))) return handle()
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<Response>((resolve) => {
    timer = setTimeout(() => {
      void isSignedIn()
        .catch(() => false)
        .then((signedIn) => {
          const landing = new URL(signedIn ? '/account' : '/login', appUrl)
          landing.searchParams.set('error', 'provider_timeout')
          resolve(new Response(null, { status: 302, headers: { Location: landing.toString() } }))
        })
    }, ms)
  })
  const answered = handle()
  // The losing handler's failure is not an unhandled rejection.
  answered.catch(() => undefined)
  return Promise.race([answered, late]).finally(() => clearTimeout(timer))
}
