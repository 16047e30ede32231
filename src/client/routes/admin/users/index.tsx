import { type SearchSchemaInput, createFileRoute, stripSearchParams } from '@tanstack/react-router'
import { PeoplePage } from '@/client/features/admin/people/people-page'
import {
  type PeopleSearch,
  peopleSearchDefaults,
  validatePeopleSearch,
} from '@/client/features/admin/people/people-search'
import { guardsFor } from '@/client/lib/guards'
import { withQueries } from '@/client/lib/query-client'

export const Route = createFileRoute('/admin/users/')({
  // Search, filters, sort and page live in the URL; defaults (and "any" filters) are left out of it.
  validateSearch: (search: Partial<PeopleSearch> & SearchSchemaInput): PeopleSearch =>
    validatePeopleSearch(search as Record<string, unknown>),
  search: { middlewares: [stripSearchParams(peopleSearchDefaults)] },
  beforeLoad: guardsFor('/admin/users'),
  component: withQueries(PeoplePage),
})
