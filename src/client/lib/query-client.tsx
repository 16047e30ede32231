import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { FunctionComponent } from 'react'
import { retryDelay, retryRead } from './retry'

/**
 * The app's one query cache. Only the pages that read or write through React Query import it (see
 * `withQueries`), so the home page's first visit loads none of it.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: retryRead, retryDelay, staleTime: 30_000, refetchOnWindowFocus: true },
    // A write is never repeated blindly.
    mutations: { retry: false },
  },
})

/** A page that uses React Query, given the one cache (a route's component: `withQueries(Page)`). */
export function withQueries<P extends object>(Page: FunctionComponent<P>): FunctionComponent<P> {
  return function WithQueries(props: P) {
    return (
      <QueryClientProvider client={queryClient}>
        <Page {...props} />
      </QueryClientProvider>
    )
  }
}
