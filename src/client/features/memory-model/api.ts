import { queryOptions } from '@tanstack/react-query'
import type { MemoryModelState } from '@/shared/memory-model'
import { practiceKeys } from '@/client/api/practice-progress'
import { api } from '@/client/lib/api'

/**
 * The learner's memory model (`/api/me/practice/memory-model`, docs/decisions/0037-memory-model.md):
 * its status, the latest fit and what each desired retention costs. Under the practice keys, and
 * read again on every `practice` event: a grade counts towards the reviews, a saved retention
 * changes the estimates, a fit that ends (`model`) changes the rest.
 */
export const memoryModelKey = [...practiceKeys.all, 'memory-model'] as const

export const memoryModelQuery = () =>
  queryOptions({
    queryKey: memoryModelKey,
    queryFn: ({ signal }) => api<MemoryModelState>('/me/practice/memory-model', { signal }),
    meta: { live: { account: true, practice: true } },
  })

/** "Personalise now": the fit queued (or running already); 409 below the reviews needed. */
export const personalise = () => api<MemoryModelState>('/me/practice/memory-model', { method: 'POST' })
