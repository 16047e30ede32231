import { queryOptions, useQueryClient } from '@tanstack/react-query'
import type { LearnerProfile, LearnerProfileInput } from '@/shared/profile'
import { api } from '@/client/lib/api'

/** The learner's own profile (language, current and target level): the dashboard edits it, the self-assessment sets the current level. */
const profileKey = ['profile'] as const

export const learnerProfileQuery = () =>
  queryOptions({
    queryKey: profileKey,
    queryFn: ({ signal }) => api<LearnerProfile>('/me/profile', { signal }),
    // One's own: a change of one's account (here or elsewhere), or of its levels.
    meta: { live: { account: true, levels: true } },
  })

export const saveProfile = (input: LearnerProfileInput) =>
  api<LearnerProfile>('/me/profile', { method: 'PUT', json: input })

/** What the profile's forms ask of the cache. */
export function useProfileCache() {
  const client = useQueryClient()
  return {
    /** The profile as the server has it now (what to change a part of). */
    current: () => client.fetchQuery(learnerProfileQuery()),
    /** The profile as saved is the one shown. */
    saved: (profile: LearnerProfile) => client.setQueryData(profileKey, profile),
  }
}
