import { queryOptions } from '@tanstack/react-query'
import { LEVEL_PAGE_SIZE_MAX, type LanguageLevel, type LevelPage } from '@/shared/levels'
import { api, searchOf } from '@/client/lib/api'

/**
 * The public read of levels that several features share: the home page, the dashboard, the command
 * palette and the admin's reordering all list every level in its order. Every read of levels
 * shares the `levels` key prefix, so one invalidation after a write refreshes them all (the admin
 * feature adds its own keys under it); each is read again on the live `levels` event (any
 * administrator's change).
 */
const all = ['levels'] as const
export const levelKeys = { all, ordered: [...all, 'ordered'] as const }

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
    meta: { live: { levels: true } },
  })
