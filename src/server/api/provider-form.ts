import { Hono } from 'hono'
import { sameOriginPath } from '@/shared/redirect'
import type { ProviderConfig } from '@/server/config'
import { isFormType, readBody } from '@/server/http/body'
import type { AppEnv } from '@/server/http/context'
import { ApiError, defaultMessages } from '@/server/http/errors'
import { describe, form } from '@/server/openapi/describe'

/** A form of two short fields: anything longer is no form of the app's. */
const MAX_FORM_BYTES = 4096

/**
 * `POST /api/sign-in/provider` (`provider`, `redirect`): "Continue with {name}" as an HTML form, so
 * that a press works before the page's scripts have started, and with none. The sign-in starts as
 * the app's own request would (`POST /api/auth/sign-in/social`, through the same handler: origin
 * check, rate limit, the provider's deadline, `state` and PKCE cookies), and the browser is sent on
 * with 303: to the provider, or back to `/login?error=<code>`, which explains the code.
 */
export function providerFormRoutes(options: {
  appUrl: string
  providers: readonly ProviderConfig[]
  /** The app itself, which answers the sign-in request. */
  forward: (request: Request, env: AppEnv['Bindings']) => Promise<Response>
}) {
  const origin = new URL(options.appUrl).origin
  return new Hono<AppEnv>().post('/', describeProviderForm, async (c) => {
    if (!isFormType(c.req.header('content-type'))) {
      throw new ApiError('unsupported_media_type', defaultMessages.unsupported_media_type)
    }
    const fields = new URLSearchParams(new TextDecoder().decode(await readBody(c.req.raw, MAX_FORM_BYTES)))
    const landing = new URL('/login', origin)
    const redirect = sameOriginPath(fields.get('redirect'), origin)
    if (redirect) landing.searchParams.set('redirect', redirect)
    const back = (code: string) => {
      landing.searchParams.set('error', code)
      return c.redirect(landing.toString(), 303)
    }
    const provider = fields.get('provider')
    if (!options.providers.some(({ id }) => id === provider)) return back('provider_not_found')

    const body = JSON.stringify({ provider, callbackURL: landing.toString(), errorCallbackURL: landing.toString() })
    const headers = new Headers(c.req.raw.headers)
    headers.set('content-type', 'application/json')
    headers.set('content-length', String(Buffer.byteLength(body)))
    const answer = await options.forward(
      new Request(new URL('/api/auth/sign-in/social', c.req.url), { method: 'POST', headers, body }),
      c.env,
    )
    const answered = (await answer.json().catch(() => undefined)) as
      | { url?: unknown; error?: { code?: unknown } }
      | undefined
    if (!answer.ok || typeof answered?.url !== 'string') {
      const code = typeof answered?.error?.code === 'string' ? answered.error.code : 'provider_unavailable'
      return back(code)
    }
    const leaving = c.redirect(answered.url, 303)
    // The provider's `state` and the PKCE verifier, kept in cookies for the way back.
    for (const cookie of answer.headers.getSetCookie()) leaving.headers.append('set-cookie', cookie)
    return leaving
  })
}

const describeProviderForm = describe({
  operationId: 'startProviderSignInForm',
  summary: 'Start a provider sign-in from an HTML form',
  description:
    'What "Continue with {name}" posts (`application/x-www-form-urlencoded`), with or without the app\'s scripts. Answers 303: to the provider\'s authorization page (with the `state` and PKCE cookies of `POST /api/auth/sign-in/social`), or to `/login?error=<code>` when the provider is not configured, does not answer or the rate limit is reached.',
  tags: ['Authentication'],
  access: 'public',
  requestBody: form(
    {
      provider: 'The provider id of `POST /api/auth/sign-in/social` (`oidc`, `github`, `google`).',
      redirect: 'Optional: where to go once signed in, a path of this app (anything else is ignored).',
    },
    ['provider'],
    'The form.',
  ),
  responses: { 303: { description: 'To the provider, or back to `/login?error=<code>`.', headers: { Location: { description: 'Where the browser goes next.', schema: { type: 'string' } } } } },
})
