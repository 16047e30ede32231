import { type SearchSchemaInput, createFileRoute, stripSearchParams } from '@tanstack/react-router'
import { RecentChangesPage } from '@/client/features/admin/audit/audit-log'
import {
  type AuditSearch,
  auditSearchDefaults,
  validateAuditSearch,
} from '@/client/features/admin/audit/audit-search'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/admin/recent-changes')({
  // The page of the list lives in the URL; the first page is left out of it.
  validateSearch: (search: Partial<AuditSearch> & SearchSchemaInput): AuditSearch =>
    validateAuditSearch(search as Record<string, unknown>),
  search: { middlewares: [stripSearchParams(auditSearchDefaults)] },
  beforeLoad: guardsFor('/admin/recent-changes'),
  component: withQueries(RecentChangesPage),
})
