import { admin, emailOTP, openAPI, twoFactor } from 'better-auth/plugins'
import type { authEmails } from './emails'
import { SIGN_IN_CODE_EXPIRES_SECONDS } from './lifetimes'

/**
 * Two-factor authentication. better-auth asks for the second factor after a password sign-in
 * only; an emailed code is no second factor, so the code sign-in gets the same challenge: the
 * plugin's own hook (drop the new session, set the two-factor cookie, answer
 * `twoFactorRedirect`) also runs after `/sign-in/email-otp`.
 */
function twoFactorOnEverySignIn(issuer: string) {
  const plugin = twoFactor({ issuer })
  const challenge = plugin.hooks.after[0]
  if (!challenge) throw new Error('better-auth twoFactor no longer has its sign-in hook')
  plugin.hooks.after.push({
    matcher: (context) => context.path === '/sign-in/email-otp',
    handler: challenge.handler,
  })
  return plugin
}

/** better-auth's plugins, and the paths of theirs that stay closed. */
export function authPlugins({ appName, sendSignInCode }: {
  appName: string
  sendSignInCode: ReturnType<typeof authEmails>['sendSignInCode']
}) {
  // The admin plugin keeps the `role` field on users. Its HTTP endpoints (list, ban, impersonate,
  // set role…) stay closed: roles change through ADMIN_EMAILS and the CLI, which the audit log
  // records, and the product has no user administration.
  const adminPlugin = admin()
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
    twoFactor: twoFactorOnEverySignIn(appName),
    admin: adminPlugin,
    openApi: openApiPlugin,
    closedPaths: [...pathsOf(adminPlugin), ...pathsOf(openApiPlugin)],
  }
}
