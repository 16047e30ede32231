import type { QueryClient } from '@tanstack/react-query'
import type { LanguageLevel } from '@/shared/levels'
import { auditKeys } from '@/client/api/audit'
import { levelKeys } from '@/client/api/levels'
import { queryClient } from '@/client/lib/query-client'
import { levelKeys as adminLevelKeys, levelQuery } from './api'

/**
 * After every write of levels: every read of levels (table, ordered list, one level, usage) and
 * the audit log, which records the write.
 */
export function refreshAfterWrite(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: levelKeys.all }),
    client.invalidateQueries({ queryKey: auditKeys.all }),
  ])
}

/**
 * What the level form asks of the cache, imported when it saves or reloads (not with the form): the
 * create page reads nothing, so its first visit does without the query cache, which the level's
 * page it goes to next loads.
 */
export const levelFormCache = {
  /** The level as saved is the one its page shows; the other reads of levels are read again. */
  saved(level: LanguageLevel): void {
    queryClient.setQueryData(adminLevelKeys.detail(level.id), level)
  },
  refresh: () => refreshAfterWrite(queryClient),
  /** The level as it is now, from the server. */
  current: (id: number) => queryClient.fetchQuery({ ...levelQuery(id), staleTime: 0 }),
}
