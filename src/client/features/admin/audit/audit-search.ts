import { pageParam } from '@/client/components/data-table/search-state'

/** The page of recent changes in the URL: `/admin/recent-changes?page=3`. */
export interface AuditSearch {
  page: number
}

export const auditSearchDefaults: AuditSearch = { page: 1 }

export function validateAuditSearch(search: Record<string, unknown>): AuditSearch {
  return { page: pageParam(search.page) ?? auditSearchDefaults.page }
}
