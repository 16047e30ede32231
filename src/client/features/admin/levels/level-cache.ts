import type { QueryClient } from '@tanstack/react-query'
import { auditKeys } from '@/client/api/audit'
import { levelKeys } from '@/client/api/levels'

/**
 * After every write of levels: every read of levels (table, ordered list, one level, usage) and
 * the audit log, which records the write.
 */
export function refreshAfterWrite(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: levelKeys.all }),
    queryClient.invalidateQueries({ queryKey: auditKeys.all }),
  ])
}
