import type { QueryClient } from '@tanstack/react-query'
import { levelKeys } from '@/client/lib/levels-api'

/**
 * After every write of levels: every read of levels (table, ordered list, one level, usage) and
 * the audit log, which records the write.
 */
export function refreshAfterWrite(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: levelKeys.all }),
    queryClient.invalidateQueries({ queryKey: ['audit'] }),
  ])
}
