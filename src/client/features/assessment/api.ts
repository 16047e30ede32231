import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import type { Answer, AssessmentProgress, AssessmentState, CanDoSet, StatementLanguage } from '@/shared/can-do'
import { assessmentKey } from '@/client/api/assessment'
import { api } from '@/client/lib/api'

/**
 * The self-assessment's writes, each with what it does to the cached state (client/api/assessment.ts,
 * which the dashboard reads too), and the statements' texts it asks.
 */

const textsKey = (lang: StatementLanguage) => ['statements', lang] as const

/** The statements in one interface language, with every level in its order. */
export const canDoSetQuery = (lang: StatementLanguage) =>
  queryOptions({
    queryKey: textsKey(lang),
    queryFn: ({ signal }) => api<CanDoSet>(`/can-do-statements?lang=${lang}`, { signal }),
    // An administrator changed the statements.
    meta: { live: { 'can-do': true } },
  })

/** A statement the texts do not have yet (added since they were read): they are read again. */
export function useRefreshTexts(): (lang: StatementLanguage) => void {
  const client = useQueryClient()
  return useCallback((lang) => void client.invalidateQueries({ queryKey: textsKey(lang) }), [client])
}

/** The server's answer to a start or an answer, as the page's state: in progress, or the new result. */
function stateAfter(progress: AssessmentProgress, before: AssessmentState | undefined): AssessmentState {
  return progress.result
    ? { inProgress: null, latest: progress.result }
    : { inProgress: progress, latest: before?.latest ?? null }
}

/** Starts one, or answers the one in progress (leaving mid-way keeps the answers). */
const startAssessment = () => api<AssessmentProgress>('/me/assessment', { method: 'POST' })

/** "Start self-assessment": the page shows its first question. */
export function useStartAssessment(onError: (error: Error) => void) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: startAssessment,
    onSuccess: (progress) =>
      client.setQueryData<AssessmentState>(assessmentKey, (before) => stateAfter(progress, before)),
    onError,
  })
}

/** One answer; `answered` hears the progress after it before the page shows it. */
export function useAnswerStatement<T extends { statementId: number; answer: Answer }>(
  answered: (next: AssessmentProgress, given: T) => void,
) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (given: T) =>
      api<AssessmentProgress>('/me/assessment/answers', {
        method: 'POST',
        json: { statementId: given.statementId, answer: given.answer },
      }),
    onSuccess: (next, given) => {
      answered(next, given)
      client.setQueryData<AssessmentState>(assessmentKey, (before) => stateAfter(next, before))
    },
    // The statement asked may have changed meanwhile (an admin's edit): read where things stand.
    onError: () => void client.invalidateQueries({ queryKey: assessmentKey }),
  })
}

/**
 * "Start again": the one in progress and its answers are deleted (finished results stay), and a new
 * one starts at the first skill.
 */
export function useStartAgain(started: () => void) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: async () => {
      await api<undefined>('/me/assessment', { method: 'DELETE' })
      return startAssessment()
    },
    onSuccess: (progress) => {
      started()
      client.setQueryData<AssessmentState>(assessmentKey, (before) => ({
        inProgress: progress,
        latest: before?.latest ?? null,
      }))
    },
  })
}
