/**
 * Where to go after signing in: a path of the app's own origin, so that `?redirect=` can never
 * send a user to another site (the client's guards and the server's provider form use it). The
 * value is resolved against the app's origin, and so is the path this returns: both must stay on
 * it. Resolving alone is not enough — `/..//evil.example` resolves
 * to the path `//evil.example`, which a browser then reads as another host.
 */
export function sameOriginPath(value: unknown, origin: string): string | undefined {
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
