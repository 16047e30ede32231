import { sameOriginPath } from '@/shared/redirect'

/** Stands for the app's origin where there is no window (tests, a worker). */
const fallbackOrigin = 'https://lingua.invalid'

/** `sameOriginPath` (shared/redirect.ts) on this page's origin. */
export function safeRedirect(value: unknown, origin = appOrigin()): string | undefined {
  return sameOriginPath(value, origin)
}

function appOrigin(): string {
  return typeof window === 'undefined' ? fallbackOrigin : window.location.origin
}

export function redirectSearch(search: Record<string, unknown>): { redirect?: string } {
  const redirect = safeRedirect(search.redirect)
  return redirect ? { redirect } : {}
}
