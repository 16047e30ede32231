import { queryOptions } from '@tanstack/react-query'
import { authApi } from '@/client/lib/auth-api'

/** The account's ways to sign in: password, linked providers, passkeys (`GET /api/me/sign-in-methods`). */
export const signInMethodsKey = ['me', 'sign-in-methods'] as const

export const signInMethodsQuery = () =>
  queryOptions({
    queryKey: signInMethodsKey,
    queryFn: ({ signal }) => authApi.signInMethods(signal),
    // Changed elsewhere too (another tab, a provider page): read afresh whenever the page shows.
    staleTime: 0,
  })
