import { type SearchSchemaInput, createFileRoute, stripSearchParams } from '@tanstack/react-router'
import { LevelsAdminPage } from '@/client/features/admin/levels/levels-page'
import {
  type LevelsSearch,
  levelsSearchDefaults,
  validateLevelsSearch,
} from '@/client/features/admin/levels/levels-search'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/admin/language-levels/')({
  // Search, sort and page of the table live in the URL; defaults are left out of it.
  validateSearch: (search: Partial<LevelsSearch> & SearchSchemaInput): LevelsSearch =>
    validateLevelsSearch(search as Record<string, unknown>),
  search: { middlewares: [stripSearchParams(levelsSearchDefaults)] },
  beforeLoad: guardsFor('/admin/language-levels'),
  component: withQueries(LevelsAdminPage),
})
