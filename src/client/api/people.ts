import { queryOptions } from '@tanstack/react-query'
import type { Overview, PeoplePage, PeopleQuery, PersonDetail } from '@/shared/people'
import { api, searchOf } from '@/client/lib/api'

/**
 * The administrators' reads of people (`/api/admin/*`), shared by the admin pages and the command
 * palette (the person's page writes: features/admin/person/api.ts). Every read shares the `people`
 * key prefix: one invalidation after an action refreshes the overview, the lists and the person's
 * page. Each is read again on the live `audit` event: every change of people is recorded.
 */
export type PeopleParams = Partial<PeopleQuery>

const all = ['people'] as const
export const peopleKeys = {
  all,
  overview: [...all, 'overview'] as const,
  list: (params: PeopleParams) => [...all, 'list', params] as const,
  detail: (id: string) => [...all, 'detail', id] as const,
}

const meta = { live: { audit: true } } as const

export const overviewQuery = () =>
  queryOptions({
    queryKey: peopleKeys.overview,
    queryFn: ({ signal }) => api<Overview>('/admin/overview', { signal }),
    meta,
  })

export const peopleListQuery = (params: PeopleParams) =>
  queryOptions({
    queryKey: peopleKeys.list(params),
    queryFn: ({ signal }) => api<PeoplePage>(`/admin/users?${searchOf(params)}`, { signal }),
    meta,
  })

export const personQuery = (id: string) =>
  queryOptions({
    queryKey: peopleKeys.detail(id),
    queryFn: ({ signal }) => api<PersonDetail>(`/admin/users/${encodeURIComponent(id)}`, { signal }),
    meta,
  })
