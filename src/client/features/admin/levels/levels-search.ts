import { LEVEL_QUERY_MAX, type LevelSort, levelSorts } from '@/shared/levels'
import { oneOf, pageParam, pageSizes, textParam } from '@/client/components/data-table/search-state'

/**
 * The levels table's state in the URL: `?q=b2&sort=-updatedAt&page=2&pageSize=50`. Read by the
 * route's `validateSearch`, so it stays free of zod (the route file is in the first page's
 * bundle): any value that is not valid becomes its default.
 */
export interface LevelsSearch {
  q: string
  sort: LevelSort
  page: number
  pageSize: number
}

export const QUERY_MAX = LEVEL_QUERY_MAX

export const levelsSearchDefaults: LevelsSearch = {
  q: '',
  sort: 'position',
  page: 1,
  pageSize: 20,
}

export function validateLevelsSearch(search: Record<string, unknown>): LevelsSearch {
  return {
    q: textParam(search.q, QUERY_MAX),
    sort: oneOf(levelSorts, search.sort) ?? levelsSearchDefaults.sort,
    page: pageParam(search.page) ?? levelsSearchDefaults.page,
    pageSize: oneOf(pageSizes, pageParam(search.pageSize)) ?? levelsSearchDefaults.pageSize,
  }
}
