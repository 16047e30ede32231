import { queryOptions, useQueryClient } from '@tanstack/react-query'
import { authApi } from '@/client/lib/auth-api'

/**
 * The account page's reads: the ways to sign in and the sessions. An account event (another tab,
 * an administrator, a session ending) reads them again.
 */
const signInMethodsKey = ['sign-in-methods'] as const
const sessionsKey = ['auth', 'sessions'] as const
const meta = { live: { account: true } } as const

/** The account's ways to sign in: password, linked providers, passkeys (`GET /api/me/sign-in-methods`). */
export const signInMethodsQuery = () =>
  queryOptions({
    queryKey: signInMethodsKey,
    queryFn: ({ signal }) => authApi.signInMethods(signal),
    // Changed elsewhere too (another tab, a provider page): read afresh whenever the page shows.
    staleTime: 0,
    meta,
  })

/**
 * The account's sessions, as seen from `thisSession`: signing in again (two factors turned on)
 * replaces this device's session, and the list is read anew.
 */
export const sessionsQuery = (thisSession: string | null) =>
  queryOptions({ queryKey: [...sessionsKey, thisSession], queryFn: authApi.listSessions, meta })

/** What the account's changes do to its cached reads. */
export function useAccountCache() {
  const client = useQueryClient()
  return {
    /** A way to sign in added or removed. */
    signInMethodsChanged: () => client.invalidateQueries({ queryKey: signInMethodsKey }),
    /** A session ended (signed out, or by a new password). */
    sessionsChanged: () => client.invalidateQueries({ queryKey: sessionsKey }),
  }
}
