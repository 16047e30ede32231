import { queryOptions } from '@tanstack/react-query'
import type { DemoServerTime } from '@/shared/demo'
import { api } from '@/client/lib/api'

/** The demo's one read: the server's time, or (`fail`) the server's error, always read afresh. */
export const serverTimeQuery = (fail: boolean) =>
  queryOptions({
    queryKey: ['demo', 'server-time', { fail }],
    queryFn: ({ signal }) =>
      api<DemoServerTime>(`/demo/server-time${fail ? '?fail=true' : ''}`, { signal }),
    staleTime: 0,
  })
