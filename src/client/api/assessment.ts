import { queryOptions } from '@tanstack/react-query'
import type { Answer, AssessmentProgress, AssessmentState, CanDoSet, StatementLanguage } from '@/shared/can-do'
import { api } from '@/client/lib/api'

/**
 * The learner's self-assessment (docs/product.md §10), read by its page and the dashboard's "Your
 * skills" card. Its key is under `me` (one's own data: a level's change or an account event reads it
 * again); the statements' texts are under `can-do`, which the live `can-do` event makes stale.
 */
export const assessmentKey = ['me', 'assessment'] as const

export const assessmentQuery = () =>
  queryOptions({
    queryKey: assessmentKey,
    queryFn: ({ signal }) => api<AssessmentState>('/me/assessment', { signal }),
  })

/** The statements in one interface language, with every level in its order. */
export const canDoSetQuery = (lang: StatementLanguage) =>
  queryOptions({
    queryKey: ['can-do', lang] as const,
    queryFn: ({ signal }) => api<CanDoSet>(`/can-do-statements?lang=${lang}`, { signal }),
  })

/** Starts one, or answers the one in progress (leaving mid-way keeps the answers). */
export const startAssessment = () => api<AssessmentProgress>('/me/assessment', { method: 'POST' })

export const answerStatement = (statementId: number, answer: Answer) =>
  api<AssessmentProgress>('/me/assessment/answers', { method: 'POST', json: { statementId, answer } })

/** "Start again": the one in progress and its answers are deleted (finished results stay). */
export const resetAssessment = () => api<undefined>('/me/assessment', { method: 'DELETE' })
