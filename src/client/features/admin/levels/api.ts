import { queryOptions } from '@tanstack/react-query'
import type { LanguageLevel, LevelPage, LevelSort, LevelUsage } from '@/shared/levels'
// Types only: the schemas stay out of the first page.
import type { LevelInput, LevelPatch } from '@/shared/levels-schemas'
import { levelKeys as publicLevelKeys } from '@/client/api/levels'
import { api, searchOf } from '@/client/lib/api'

/**
 * The admin's level endpoints, as React Query options and plain writes; what the writes do to the
 * cache is level-cache.ts (the create page sends its form without loading the cache).
 */

interface LevelListParams {
  q?: string
  sort?: LevelSort
  page?: number
  pageSize?: number
}

/**
 * The admin's reads, under the `levels` prefix every read of levels shares; each is read again on
 * the live `levels` event (another administrator's change: a level being edited too, whose form
 * keeps what was typed and says who changed it).
 */
export const levelKeys = {
  list: (params: LevelListParams) => [...publicLevelKeys.all, 'list', params] as const,
  detail: (id: number) => [...publicLevelKeys.all, 'detail', id] as const,
  usage: (id: number) => [...publicLevelKeys.all, 'usage', id] as const,
}

const meta = { live: { levels: true } } as const

/** One page of levels: the admin table. */
export const levelListQuery = (params: LevelListParams) =>
  queryOptions({
    queryKey: levelKeys.list(params),
    queryFn: ({ signal }) => api<LevelPage>(`/language-levels?${searchOf(params)}`, { signal }),
    meta,
  })

export const levelQuery = (id: number) =>
  queryOptions({
    queryKey: levelKeys.detail(id),
    queryFn: ({ signal }) => api<LanguageLevel>(`/language-levels/${id}`, { signal }),
    meta,
  })

/** How many learners, statements and words a level has (asked for by the delete confirmation). */
export const levelUsageQuery = (id: number) =>
  queryOptions({
    queryKey: levelKeys.usage(id),
    queryFn: ({ signal }) => api<LevelUsage>(`/language-levels/${id}/usage`, { signal }),
    staleTime: 0,
    meta,
  })

export const levelsApi = {
  create: (input: LevelInput) =>
    api<LanguageLevel>('/language-levels', { method: 'POST', json: input }),
  update: (id: number, patch: LevelPatch) =>
    api<LanguageLevel>(`/language-levels/${id}`, { method: 'PATCH', json: patch }),
  remove: (id: number) => api<undefined>(`/language-levels/${id}`, { method: 'DELETE' }),
  reorder: (ids: number[]) =>
    api<LanguageLevel[]>('/language-levels/order', { method: 'PUT', json: { ids } }),
}
