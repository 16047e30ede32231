/** Stands for the app's origin where there is no window (tests, a worker). */
const fallbackOrigin = 'https://lingua.invalid'

/**
 * Where to go after signing in: a path of the app's own origin, so that `?redirect=` can never
 * send a user to another site. The value is resolved against the app's origin, and so is the path
 * this returns: both must stay on it. Resolving alone is not enough — `/..//evil.example` resolves
 * to the path `//evil.example`, which a browser then reads as another host.
 */
export function safeRedirect(value: unknown, origin = appOrigin()): string | undefined {
  if (typeof value !== 'string' || value.length > 2000 || !value.startsWith('/')) return undefined
  // Control characters and backslashes: browsers drop or turn them into slashes.
  if (/[\p{Cc}\\]/u.test(value)) return undefined
  try {
    const resolved = new URL(value, origin)
    if (resolved.origin !== origin) return undefined
    const path = `${resolved.pathname}${resolved.search}${resolved.hash}`
    return new URL(path, origin).origin === origin && !path.startsWith('//') ? path : undefined
  } catch {
    return undefined
  }
}

function appOrigin(): string {
  return typeof window === 'undefined' ? fallbackOrigin : window.location.origin
}

export function redirectSearch(search: Record<string, unknown>): { redirect?: string } {
  const redirect = safeRedirect(search.redirect)
  return redirect ? { redirect } : {}
}
