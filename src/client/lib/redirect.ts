/**
 * Where to go after signing in: only a same-origin relative path ("/x", not "//host" or
 * "/\\host" or "https://…"), so `?redirect=` can never send a user to another site.
 */
export function safeRedirect(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2000) return undefined
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined
  if (/[\p{Cc}\\]/u.test(value)) return undefined
  try {
    const url = new URL(value, 'https://lingua.invalid')
    return url.origin === 'https://lingua.invalid' ? `${url.pathname}${url.search}${url.hash}` : undefined
  } catch {
    return undefined
  }
}

export function redirectSearch(search: Record<string, unknown>): { redirect?: string } {
  const redirect = safeRedirect(search.redirect)
  return redirect ? { redirect } : {}
}
