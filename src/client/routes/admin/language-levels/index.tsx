import { type SearchSchemaInput, createFileRoute, stripSearchParams } from '@tanstack/react-router'
import { AuditLog } from '@/client/features/admin/audit/audit-log'
import {
  type AuditSearch,
  auditSearchDefaults,
  validateAuditSearch,
} from '@/client/features/admin/audit/audit-search'
import { LevelsAdminPage } from '@/client/features/admin/levels/levels-page'
import {
  type LevelsSearch,
  levelsSearchDefaults,
  validateLevelsSearch,
} from '@/client/features/admin/levels/levels-search'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

type Search = LevelsSearch & AuditSearch

export const Route = createFileRoute('/admin/language-levels/')({
  // Search, sort and pages (of the table and of the audit log) live in the URL; defaults are left
  // out of it.
  validateSearch: (search: Partial<Search> & SearchSchemaInput): Search => ({
    ...validateLevelsSearch(search as Record<string, unknown>),
    ...validateAuditSearch(search as Record<string, unknown>),
  }),
  search: { middlewares: [stripSearchParams({ ...levelsSearchDefaults, ...auditSearchDefaults })] },
  beforeLoad: guardsFor('/admin/language-levels'),
  component: withQueries(LevelsAdminRoute),
})

function LevelsAdminRoute() {
  return (
    <LevelsAdminPage>
      <AuditLog />
    </LevelsAdminPage>
  )
}
