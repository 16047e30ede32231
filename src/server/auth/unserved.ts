/**
 * better-auth endpoints the app does not serve although its plugins mount them (app.ts answers
 * them 404 before better-auth sees them, and the OpenAPI document leaves them out):
 * - the two-factor plugin's emailed-code second factor (`/two-factor/send-otp`,
 *   `/two-factor/verify-otp`) needs an `otpOptions.sendOTP`, which the app does not configure (its
 *   second factor is an authenticator app or a backup code): they could only fail;
 * - with no provider configured (OIDC_*, GITHUB_*, GOOGLE_*), the provider sign-in, linking and
 *   callback endpoints.
 * Paths as the document writes them: `{id}` stands for one path segment.
 */
export function unservedAuthPaths(providersConfigured: boolean): string[] {
  return [
    '/two-factor/send-otp',
    '/two-factor/verify-otp',
    ...(providersConfigured ? [] : ['/sign-in/social', '/link-social', '/callback/{id}']),
  ]
}

/** Whether a request path (under `basePath`) is one of `paths`. */
export function unservedMatcher(paths: readonly string[], basePath: string): (path: string) => boolean {
  const patterns = paths.map(
    (path) => new RegExp(`^${(basePath + path).replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  )
  return (path) => patterns.some((pattern) => pattern.test(path))
}
