import { type SearchSchemaInput, createFileRoute, stripSearchParams } from '@tanstack/react-router'
import { CanDoPage } from '@/client/features/admin/can-do/can-do-page'
import {
  type CanDoSearch,
  canDoSearchDefaults,
  validateCanDoSearch,
} from '@/client/features/admin/can-do/can-do-search'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/admin/can-do')({
  // The filters and the search live in the URL; "any" and an empty search are left out of it.
  validateSearch: (search: Partial<CanDoSearch> & SearchSchemaInput): CanDoSearch =>
    validateCanDoSearch(search as Record<string, unknown>),
  search: { middlewares: [stripSearchParams(canDoSearchDefaults)] },
  beforeLoad: guardsFor('/admin/can-do'),
  component: withQueries(CanDoPage),
})
