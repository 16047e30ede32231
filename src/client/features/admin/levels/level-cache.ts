import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import type { LanguageLevel } from '@/shared/levels'
import { auditKeys } from '@/client/api/audit'
import { levelKeys as publicLevelKeys } from '@/client/api/levels'
import { queryClient } from '@/client/lib/query-client'
import { levelKeys, levelQuery } from './api'

/**
 * After every write of levels: every read of levels (table, ordered list, one level, usage) and
 * the audit log, which records the write.
 */
function refreshAfterWrite(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: publicLevelKeys.all }),
    client.invalidateQueries({ queryKey: auditKeys.all }),
  ])
}

/** What the levels' writes do to the cached reads (the table, a level's page, the reordering). */
export function useLevelsCache() {
  const client = useQueryClient()
  return {
    refresh: () => refreshAfterWrite(client),
    /** A deleted level: its page is not read again. */
    forget: (id: number) => client.removeQueries({ queryKey: levelKeys.detail(id) }),
    /** A level being deleted: its usage is not read again (the refresh after it would ask for it). */
    forgetUsage: (id: number) => client.removeQueries({ queryKey: levelKeys.usage(id), exact: true }),
  }
}

/**
 * What the level form asks of the cache, imported when it saves or reloads (not with the form): the
 * create page reads nothing, so its first visit does without the query cache, which the level's
 * page it goes to next loads.
 */
export const levelFormCache = {
  /** The level as saved is the one its page shows; the other reads of levels are read again. */
  saved(level: LanguageLevel): void {
    queryClient.setQueryData(levelKeys.detail(level.id), level)
  },
  refresh: () => refreshAfterWrite(queryClient),
  /** The level as it is now, from the server. */
  current: (id: number) => queryClient.fetchQuery({ ...levelQuery(id), staleTime: 0 }),
}
