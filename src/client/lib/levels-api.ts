import { queryOptions } from '@tanstack/react-query'
import type { AuditPage } from '@/shared/audit-log'
import {
  LEVEL_PAGE_SIZE_MAX,
  type LanguageLevel,
  type LevelPage,
  type LevelSort,
  type LevelUsage,
} from '@/shared/level-constants'
// Types only: the schemas stay out of the first page.
import type { LevelInput, LevelPatch } from '@/shared/levels'
import type { LearnerProfile, LearnerProfileInput } from '@/shared/profile'
import { api } from './api'

/**
 * The level, profile and audit endpoints, as React Query options and plain writes. Every read
 * of levels shares the `levels` key prefix, so one invalidation after a write refreshes them all.
 */

export interface LevelListParams {
  q?: string
  sort?: LevelSort
  page?: number
  pageSize?: number
}

export const levelKeys = {
  all: ['levels'] as const,
  list: (params: LevelListParams) => ['levels', 'list', params] as const,
  ordered: ['levels', 'ordered'] as const,
  detail: (id: number) => ['levels', 'detail', id] as const,
  usage: (id: number) => ['levels', 'usage', id] as const,
}
export const profileKey = ['me', 'profile'] as const
export const auditKey = (page: number) => ['audit', page] as const

function searchOf(params: object): string {
  const entries = Object.entries(params).filter(([, value]) => value !== undefined && value !== '')
  return new URLSearchParams(entries.map(([key, value]) => [key, String(value)])).toString()
}

/** One page of levels: the admin table. */
export const levelListQuery = (params: LevelListParams) =>
  queryOptions({
    queryKey: levelKeys.list(params),
    queryFn: ({ signal }) => api<LevelPage>(`/language-levels?${searchOf(params)}`, { signal }),
  })

/** Every level in their order (as many pages as it takes). */
export async function fetchOrderedLevels(signal?: AbortSignal): Promise<LanguageLevel[]> {
  const levels: LanguageLevel[] = []
  for (let page = 1; ; page++) {
    const answer = await api<LevelPage>(
      `/language-levels?${searchOf({ sort: 'position', page, pageSize: LEVEL_PAGE_SIZE_MAX })}`,
      { signal },
    )
    levels.push(...answer.items)
    if (answer.items.length === 0 || levels.length >= answer.total) return levels
  }
}

/** Every level in their order: dashboard, reordering, the command palette. */
export const orderedLevelsQuery = () =>
  queryOptions({
    queryKey: levelKeys.ordered,
    queryFn: ({ signal }) => fetchOrderedLevels(signal),
  })

export const levelQuery = (id: number) =>
  queryOptions({
    queryKey: levelKeys.detail(id),
    queryFn: ({ signal }) => api<LanguageLevel>(`/language-levels/${id}`, { signal }),
  })

/** How many learners use a level (asked for by the delete confirmation). */
export const levelUsageQuery = (id: number) =>
  queryOptions({
    queryKey: levelKeys.usage(id),
    queryFn: ({ signal }) => api<LevelUsage>(`/language-levels/${id}/usage`, { signal }),
    staleTime: 0,
  })

export const learnerProfileQuery = () =>
  queryOptions({
    queryKey: profileKey,
    queryFn: ({ signal }) => api<LearnerProfile>('/me/profile', { signal }),
  })

export const auditQuery = (page: number) =>
  queryOptions({
    queryKey: auditKey(page),
    queryFn: ({ signal }) => api<AuditPage>(`/audit-log?${searchOf({ page })}`, { signal }),
    staleTime: 0,
  })

export const levelsApi = {
  create: (input: LevelInput) =>
    api<LanguageLevel>('/language-levels', { method: 'POST', json: input }),
  update: (id: number, patch: LevelPatch) =>
    api<LanguageLevel>(`/language-levels/${id}`, { method: 'PATCH', json: patch }),
  remove: (id: number) => api<undefined>(`/language-levels/${id}`, { method: 'DELETE' }),
  reorder: (ids: number[]) =>
    api<LanguageLevel[]>('/language-levels/order', { method: 'PUT', json: { ids } }),
  saveProfile: (input: LearnerProfileInput) =>
    api<LearnerProfile>('/me/profile', { method: 'PUT', json: input }),
}
