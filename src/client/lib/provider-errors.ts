import { useEffect, useState } from 'react'

/**
 * `?error=<code>`: how a provider sign-in (or linking) comes back when it failed. better-auth also
 * appends `error_description`, the provider's own words, which the pages never show as they are.
 * The routes check it, so this module is on every first page: the sentences for the codes are in
 * components/sign-in, with the pages that show them.
 */

/** better-auth's codes are lower-case words joined by `_`; anything else is no code of theirs. */
const PROVIDER_ERROR_CODE = /^[a-z_]{1,100}$/

/** The `error` search parameter of a page a provider may send the browser back to. */
export function providerErrorSearch(search: Record<string, unknown>): { error?: string } {
  const { error } = search
  return typeof error === 'string' && PROVIDER_ERROR_CODE.test(error) ? { error } : {}
}

/** The search without what the provider's return added (`error`, `error_description`). */
export function withoutProviderError<T extends { error?: string }>(search: T): Omit<T, 'error'> {
  // `error_description` is no parameter of the page, yet the router keeps it in the address.
  const { error: _, error_description: __, ...rest } = search as T & { error_description?: unknown }
  return rest as Omit<T, 'error'>
}

/**
 * The `?error=` a page arrived with, kept while the page stays open, though `removeFromUrl` takes it
 * out of the address at once: a reload, a bookmark or the back button does not show it again.
 */
export function useProviderError(error: string | undefined, removeFromUrl: () => unknown): string | undefined {
  const [arrivedWith] = useState(error)
  useEffect(() => {
    if (error) void removeFromUrl()
    // Once per code in the address: the callback is a new function at every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [error])
  return arrivedWith
}
