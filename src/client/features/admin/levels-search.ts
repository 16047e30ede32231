import { LEVEL_QUERY_MAX, type LevelSort, levelSorts } from '@/shared/level-constants'

/**
 * The admin table's state in the URL: `?q=b2&sort=-updatedAt&page=2&pageSize=50&auditPage=3`.
 * Read by the route's `validateSearch`, so it stays free of zod (the route file is in the first
 * page's bundle): any value that is not valid becomes its default.
 */
export interface LevelsSearch {
  q: string
  sort: LevelSort
  page: number
  pageSize: number
  auditPage: number
}

export const pageSizes = [10, 20, 50, 100] as const
export const QUERY_MAX = LEVEL_QUERY_MAX

export const levelsSearchDefaults: LevelsSearch = {
  q: '',
  sort: 'position',
  page: 1,
  pageSize: 20,
  auditPage: 1,
}

function isSort(value: unknown): value is LevelSort {
  return levelSorts.some((sort) => sort === value)
}

function pageOf(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value
  return typeof number === 'number' && Number.isInteger(number) && number >= 1 && number <= 100_000
    ? number
    : undefined
}

export function validateLevelsSearch(search: Record<string, unknown>): LevelsSearch {
  const q = typeof search.q === 'string' ? search.q.slice(0, QUERY_MAX) : typeof search.q === 'number' ? String(search.q) : ''
  const pageSize = pageOf(search.pageSize)
  return {
    q,
    sort: isSort(search.sort) ? search.sort : levelsSearchDefaults.sort,
    page: pageOf(search.page) ?? levelsSearchDefaults.page,
    pageSize: pageSizes.find((size) => size === pageSize) ?? levelsSearchDefaults.pageSize,
    auditPage: pageOf(search.auditPage) ?? levelsSearchDefaults.auditPage,
  }
}
