import { pageParam } from '@/client/components/data-table/search-state'

/** The audit log's page in the URL of the page that shows it: `?auditPage=3`. */
export interface AuditSearch {
  auditPage: number
}

export const auditSearchDefaults: AuditSearch = { auditPage: 1 }

export function validateAuditSearch(search: Record<string, unknown>): AuditSearch {
  return { auditPage: pageParam(search.auditPage) ?? auditSearchDefaults.auditPage }
}
