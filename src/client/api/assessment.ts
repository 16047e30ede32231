import { queryOptions } from '@tanstack/react-query'
import type { AssessmentState } from '@/shared/can-do'
import { api } from '@/client/lib/api'

/**
 * The learner's self-assessment (docs/product.md §10), read by its page and the dashboard's "Your
 * skills" card; its writes are the assessment feature's (features/assessment/api.ts).
 */
export const assessmentKey = ['assessment'] as const

export const assessmentQuery = () =>
  queryOptions({
    queryKey: assessmentKey,
    queryFn: ({ signal }) => api<AssessmentState>('/me/assessment', { signal }),
    // One's own: read again after a change of one's account, of a level, or of the statements
    // (its questions: an administrator's edit).
    meta: { live: { account: true, levels: true, 'can-do': true } },
  })
