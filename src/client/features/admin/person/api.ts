import { useQueryClient } from '@tanstack/react-query'
import type { PersonDetail } from '@/shared/people'
import type { Role } from '@/shared/roles'
import { peopleKeys } from '@/client/api/people'
import { api } from '@/client/lib/api'

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

/** What an action on a person does to the cached reads of people. */
export function usePeopleCache() {
  const queryClient = useQueryClient()
  return {
    /** Every read of people (the overview, the lists, the person's page) read again. */
    refresh: () => queryClient.invalidateQueries({ queryKey: peopleKeys.all }),
    /** A deleted person's page, not to be read again. */
    forget: (id: string) => queryClient.removeQueries({ queryKey: peopleKeys.detail(id) }),
  }
}
