import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { FunctionComponent } from 'react'
import { followAccountChange } from './auth'
import { onLive } from './live'
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

/**
 * Live events make the cached reads they change stale (active ones are read again at once), by the
 * first part of their keys: `levels`, `can-do` (the statements; with the assessment in progress,
 * whose questions they are), `words` (a level's words, admin), `audit`, `people` (admin), `me` and
 * `auth` (one's own account). A level
 * being edited is refetched too: the form keeps what was typed and says who changed it
 * (features/admin/levels).
 */
const invalidate = (...prefixes: string[]) => {
  for (const prefix of prefixes) void queryClient.invalidateQueries({ queryKey: [prefix] })
}
onLive('levels', () => invalidate('levels', 'me'))
onLive('can-do', () => {
  invalidate('can-do')
  void queryClient.invalidateQueries({ queryKey: ['me', 'assessment'] })
})
onLive('words', () => invalidate('words'))
onLive('audit', () => invalidate('audit', 'people'))
// Once the session is read again (it may be being replaced: a password change), not before.
onLive('account', () => void followAccountChange().then(() => invalidate('me', 'auth')))
// One's practice changed in another tab (or this one: the stream tells every tab): the queue and
// today's counts are read again. The practice page keeps the card on screen (features/practice).
onLive('practice', ({ reason }) =>
  void queryClient.invalidateQueries({
    queryKey: ['me', 'practice'],
    predicate: (query) => reason === 'settings' || query.queryKey[2] !== 'settings',
  }),
)
// A level's words changed: the cards to practise may be others.
onLive('words', () => void queryClient.invalidateQueries({ queryKey: ['me', 'practice', 'queue'] }))
// What was missed could not be sent: everything is read again.
onLive('reset', () => void queryClient.invalidateQueries())

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
