import { queryOptions } from '@tanstack/react-query'
import type { LearnerProfile, LearnerProfileInput } from '@/shared/profile'
import { api } from '@/client/lib/api'

/** The learner's own profile (language, current and target level): the dashboard edits it, the self-assessment sets the current level. */
export const profileKey = ['me', 'profile'] as const

export const learnerProfileQuery = () =>
  queryOptions({
    queryKey: profileKey,
    queryFn: ({ signal }) => api<LearnerProfile>('/me/profile', { signal }),
  })

export const saveProfile = (input: LearnerProfileInput) =>
  api<LearnerProfile>('/me/profile', { method: 'PUT', json: input })
