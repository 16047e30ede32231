import {
  PEOPLE_PAGE_SIZE_DEFAULT,
  PEOPLE_QUERY_MAX,
  PEOPLE_SORT_DEFAULT,
  type PeopleQuery,
  peopleSorts,
  yesNo,
} from '@/shared/people'
import type { Role } from '@/shared/roles'
import { oneOf, pageParam, pageSizes, textParam } from '@/client/components/data-table/search-state'

/**
 * The people table's state in the URL: `?q=ada&role=admin&mfa=no&sort=email&page=2`. Read by the
 * route's `validateSearch`, so it stays free of zod (the route file is in the first page's
 * bundle): any value that is not valid becomes its default; a filter that is absent means "any".
 */
export type PeopleSearch = Omit<PeopleQuery, 'q'> & { q: string }

export type PeopleFilter = 'role' | 'confirmed' | 'mfa' | 'disabled'
export const peopleFilters: readonly PeopleFilter[] = ['role', 'confirmed', 'mfa', 'disabled']

export const roles: readonly Role[] = ['user', 'admin']

export const peopleSearchDefaults = {
  q: '',
  sort: PEOPLE_SORT_DEFAULT,
  page: 1,
  pageSize: PEOPLE_PAGE_SIZE_DEFAULT,
} satisfies PeopleSearch

export function validatePeopleSearch(search: Record<string, unknown>): PeopleSearch {
  return {
    q: textParam(search.q, PEOPLE_QUERY_MAX),
    role: oneOf(roles, search.role),
    confirmed: oneOf(yesNo, search.confirmed),
    mfa: oneOf(yesNo, search.mfa),
    disabled: oneOf(yesNo, search.disabled),
    sort: oneOf(peopleSorts, search.sort) ?? peopleSearchDefaults.sort,
    page: pageParam(search.page) ?? peopleSearchDefaults.page,
    pageSize: oneOf(pageSizes, pageParam(search.pageSize)) ?? peopleSearchDefaults.pageSize,
  }
}

/** Whether the list is narrowed at all: then an empty page means "no match", not "no data". */
export function isNarrowed(search: PeopleSearch): boolean {
  return search.q !== '' || peopleFilters.some((name) => search[name] !== undefined)
}
