import { queryOptions } from '@tanstack/react-query'
import type { Progress } from '@/shared/progress'
import { api } from '@/client/lib/api'

/**
 * The learner's progress (docs/product.md §13): read again after a grade, an undo, a change of
 * decks or settings (the `practice` event tells every tab), of one's account or of a level (its words).
 */
const all = ['progress'] as const

export const progressQuery = () =>
  queryOptions({
    queryKey: all,
    queryFn: ({ signal }) => api<Progress>('/me/progress', { signal }),
    meta: { live: { account: true, levels: true, practice: true } },
  })
