import { type Query, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { FunctionComponent } from 'react'
import type { LiveEventName, LiveEvents } from '@/shared/live'
import { followAccountChange } from './auth'
import { onLive } from './live'
import { retryDelay, retryRead } from './retry'

/**
 * The live events that make a cached read stale (docs/decisions/0013-live-updates.md): each read
 * says which in its options' `meta.live`, beside its key in its area's module (client/api/,
 * features/<area>/api), as `true` or as a test of the event's data. The cache follows them; it
 * knows no area.
 */
type LiveRefresh = { [K in LiveEventName]?: true | ((data: LiveEvents[K]) => boolean) }

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { live?: LiveRefresh }
  }
}

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

function changedBy<K extends LiveEventName>(query: Query, name: K, data: LiveEvents[K]): boolean {
  const rule = query.meta?.live?.[name]
  return rule === true || (typeof rule === 'function' && rule(data))
}

const followed = new Set<LiveEventName>()

/** Makes the cached reads that `name` changes stale when it comes (active ones are read again at once). */
function follow(name: LiveEventName): void {
  if (followed.has(name)) return
  followed.add(name)
  onLive(name, (data) => {
    const stale = () => void queryClient.invalidateQueries({ predicate: (query) => changedBy(query, name, data) })
    // Once the session is read again (it may be being replaced: a password change), not before.
    if (name === 'account') void followAccountChange().then(stale)
    else stale()
  })
}

// An event is followed from the moment a read it changes is in the cache.
queryClient.getQueryCache().subscribe(({ query }) => {
  for (const name of Object.keys(query.meta?.live ?? {})) follow(name as LiveEventName)
})

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
