import { passkey } from '@better-auth/passkey'
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api'
import { admin, emailOTP, openAPI, twoFactor } from 'better-auth/plugins'
import type { authEmails } from './emails'
import { SIGN_IN_CODE_EXPIRES_SECONDS } from './lifetimes'

/** Where a provider sign-in comes back (better-auth's `/callback/:id`). */
export const isProviderCallback = (path: string | undefined) => path?.startsWith('/callback/') === true

/**
 * Two-factor authentication. better-auth asks for the second factor after a password sign-in
 * only; an emailed code is no second factor, so the code sign-in gets the same challenge: the
 * plugin's own hook (drop the new session, set the two-factor cookie, answer
 * `twoFactorRedirect`) also runs after `/sign-in/email-otp`.
 */
function twoFactorOnEverySignIn(issuer: string, appUrl: string) {
  const plugin = twoFactor({ issuer })
  const challenge = plugin.hooks.after[0]
  if (!challenge) throw new Error('better-auth twoFactor no longer has its sign-in hook')
  plugin.hooks.after.push({
    matcher: (context) => context.path === '/sign-in/email-otp',
    handler: challenge.handler,
  })
  // A provider sign-in ends in a redirect, not in JSON: when the challenge replaced the session
  // with the two-factor cookie, the browser goes to the sign-in page's second step instead, keeping
  // the page it was going to (the callback's own redirect is `/login?redirect=…`).
  plugin.hooks.after.push({
    matcher: (context) => isProviderCallback(context.path),
    handler: createAuthMiddleware(async (ctx) => {
      const signedIn = ctx.context.newSession
      const callback = ctx.context.returned
      if (!signedIn?.user.twoFactorEnabled || !isAPIError(callback)) return undefined
      // The challenge's own cookies (session dropped, two-factor cookie set) come back as headers.
      const challenged = (await challenge.handler({ ...ctx, returnHeaders: true })) as { headers?: Headers | null } | undefined
      if (ctx.context.newSession) return undefined // a trusted device: no second step
      const answered = new Headers(callback.headers)
      const going = new URL(answered.get('location') ?? '/login', appUrl)
      const next = new URL('/login', appUrl)
      const redirect = going.pathname === '/login' ? going.searchParams.get('redirect') : going.pathname
      if (redirect) next.searchParams.set('redirect', redirect)
      next.searchParams.set('step', 'second-factor')
      const headers = new Headers({ Location: next.toString() })
      for (const cookie of [...answered.getSetCookie(), ...(challenged?.headers?.getSetCookie() ?? [])]) {
        headers.append('Set-Cookie', cookie)
      }
      throw new APIError('FOUND', undefined, headers)
    }),
  })
  return plugin
}

/**
 * Passkeys (WebAuthn) for the app's origin. User verification is required — the plugin asks for
 * it only as "preferred" — so a passkey sign-in is both factors at once: no TOTP step follows it
 * (docs/decisions). `onSignedIn` is told which credential signed someone in.
 */
function passkeys(appName: string, appUrl: string, onSignedIn: (credentialId: string) => Promise<void>) {
  const notVerified = () =>
    new APIError('BAD_REQUEST', {
      code: 'USER_NOT_VERIFIED',
      message: 'The passkey did not verify you (PIN, fingerprint or face). Try again.',
    })
  return passkey({
    rpID: new URL(appUrl).hostname,
    rpName: appName,
    origin: new URL(appUrl).origin,
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    registration: {
      afterVerification: ({ verification }) => {
        if (!verification.registrationInfo?.userVerified) throw notVerified()
        return Promise.resolve()
      },
    },
    authentication: {
      afterVerification: async ({ verification, clientData }) => {
        if (!verification.authenticationInfo.userVerified) throw notVerified()
        await onSignedIn(String(clientData.id))
      },
    },
  })
}

/** better-auth's plugins, and the paths of theirs that stay closed. */
export function authPlugins({ appName, appUrl, sendSignInCode, onPasskeySignIn }: {
  appName: string
  appUrl: string
  sendSignInCode: ReturnType<typeof authEmails>['sendSignInCode']
  onPasskeySignIn: (credentialId: string) => Promise<void>
}) {
  // The admin plugin keeps the `role` and `banned` fields on users, and refuses a new session of a
  // disabled ("banned") account, whatever the way of signing in. Its HTTP endpoints (list, ban,
  // impersonate, set role…) stay closed: roles and access change only through the app's audited
  // paths (auth/access.ts: /api/admin/*, the CLI, ADMIN_EMAILS).
  const adminPlugin = admin({ bannedUserMessage: 'This account is disabled' })
  // A disabled account coming back from a provider lands on /login with the app's own code, whose
  // sentence is the one every other way of signing in gives (`account_disabled`).
  adminPlugin.hooks.after.push({
    matcher: (context) => isProviderCallback(context.path),
    handler: createAuthMiddleware((ctx) => {
      const callback = ctx.context.returned
      if (!isAPIError(callback)) return Promise.resolve(undefined)
      const headers = new Headers(callback.headers)
      const going = new URL(headers.get('location') ?? '/login', appUrl)
      if (going.searchParams.get('error')?.toUpperCase() !== 'BANNED_USER') return Promise.resolve(undefined)
      going.searchParams.set('error', 'account_disabled')
      headers.set('location', going.toString())
      throw new APIError('FOUND', undefined, headers)
    }),
  })
  // Describes the endpoints for the app's one OpenAPI document (/api/openapi.json, which calls
  // `auth.api.generateOpenAPISchema()`). Its own HTTP endpoints stay closed: its document would be a
  // second one, in better-auth's error shape, and its page loads Scalar from a CDN (our CSP and an
  // offline machine refuse it); the app serves its own reference page at /api/docs.
  const openApiPlugin = openAPI({ disableDefaultReference: true })
  const pathsOf = (plugin: { endpoints: Record<string, { path: string }> }) =>
    Object.values(plugin.endpoints).map((endpoint) => endpoint.path)
  return {
    emailOtp: emailOTP({
      otpLength: 6,
      expiresIn: SIGN_IN_CODE_EXPIRES_SECONDS,
      // Asking again re-sends the same code (stored encrypted): a second request within the
      // mail throttle's 60 s would otherwise replace the code the user already received.
      storeOTP: 'encrypted',
      resendStrategy: 'reuse',
      // Codes sign in existing accounts only: creating one needs a name and a password.
      disableSignUp: true,
      sendVerificationOTP: sendSignInCode,
    }),
    twoFactor: twoFactorOnEverySignIn(appName, appUrl),
    passkey: passkeys(appName, appUrl, onPasskeySignIn),
    admin: adminPlugin,
    openApi: openApiPlugin,
    closedPaths: [...pathsOf(adminPlugin), ...pathsOf(openApiPlugin)],
  }
}
