import { queryOptions } from '@tanstack/react-query'
import type { AuditPage } from '@/shared/audit-log'
import { auditKeys } from '@/client/api/audit'
import { api, searchOf } from '@/client/lib/api'

/** One page of the audit log, newest first; always read afresh. */
export const auditQuery = (page: number) =>
  queryOptions({
    queryKey: auditKeys.page(page),
    queryFn: ({ signal }) => api<AuditPage>(`/audit-log?${searchOf({ page })}`, { signal }),
    staleTime: 0,
    // Another administrator's write is a new row.
    meta: { live: { audit: true } },
  })
