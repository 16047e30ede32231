import { queryOptions } from '@tanstack/react-query'
import type { Overview, PeoplePage, PeopleQuery, PersonDetail } from '@/shared/people'
import type { Role } from '@/shared/roles'
import { api, searchOf } from '@/client/lib/api'

/**
 * The administrators' endpoints for people (`/api/admin/*`), shared by the admin pages and the
 * command palette. Every read shares the `people` key prefix: one invalidation after an action
 * refreshes the overview, the lists and the person's page.
 */
export type PeopleParams = Partial<PeopleQuery>

export const peopleKeys = {
  all: ['people'] as const,
  overview: ['people', 'overview'] as const,
  list: (params: PeopleParams) => ['people', 'list', params] as const,
  detail: (id: string) => ['people', 'detail', id] as const,
}

export const overviewQuery = () =>
  queryOptions({
    queryKey: peopleKeys.overview,
    queryFn: ({ signal }) => api<Overview>('/admin/overview', { signal }),
  })

export const peopleListQuery = (params: PeopleParams) =>
  queryOptions({
    queryKey: peopleKeys.list(params),
    queryFn: ({ signal }) => api<PeoplePage>(`/admin/users?${searchOf(params)}`, { signal }),
  })

export const personQuery = (id: string) =>
  queryOptions({
    queryKey: peopleKeys.detail(id),
    queryFn: ({ signal }) => api<PersonDetail>(`/admin/users/${encodeURIComponent(id)}`, { signal }),
  })

const userPath = (id: string) => `/admin/users/${encodeURIComponent(id)}`

/** The actions on one person; each answers the person as they are now, or nothing. */
export const peopleApi = {
  setRole: (id: string, role: Role) => api<PersonDetail>(`${userPath(id)}/role`, { method: 'PUT', json: { role } }),
  disable: (id: string) => api<PersonDetail>(`${userPath(id)}/disable`, { method: 'POST' }),
  enable: (id: string) => api<PersonDetail>(`${userPath(id)}/enable`, { method: 'POST' }),
  signOutAll: (id: string) => api<undefined>(`${userPath(id)}/sign-out`, { method: 'POST' }),
  revokeSession: (id: string, sessionId: string) =>
    api<undefined>(`${userPath(id)}/sessions/${encodeURIComponent(sessionId)}`, { method: 'DELETE' }),
  resendConfirmation: (id: string) => api<undefined>(`${userPath(id)}/resend-confirmation`, { method: 'POST' }),
  remove: (id: string, email: string) => api<undefined>(userPath(id), { method: 'DELETE', json: { email } }),
}
