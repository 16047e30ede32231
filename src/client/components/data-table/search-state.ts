import type { SortingState } from '@tanstack/react-table'

/**
 * A server-paged table keeps its state in the URL (`?q=b2&sort=-updatedAt&page=2&pageSize=50`).
 * These read it back leniently (a route's `validateSearch` turns any invalid value into its
 * default) and translate between the URL's sort and the table's sorting state.
 */

/** The page sizes a server-paged table offers (the API takes up to 100 rows a page). */
export const pageSizes = [10, 20, 50, 100] as const

/** How a table is sorted in the URL: `code` ascending, `-code` descending. */
export type SortParam<Key extends string> = Key | `-${Key}`

/** A page number from the URL (string or number), or undefined when it is not one. */
export function pageParam(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value
  return typeof number === 'number' && Number.isInteger(number) && number >= 1 && number <= 100_000
    ? number
    : undefined
}

/** Search text from the URL, at most `max` characters; '' when there is none. */
export function textParam(value: unknown, max: number): string {
  if (typeof value === 'string') return value.slice(0, max)
  return typeof value === 'number' ? String(value) : ''
}

/** One of `allowed` (page sizes, sorts), else undefined. */
export function oneOf<T>(allowed: readonly T[], value: unknown): T | undefined {
  return allowed.find((candidate) => candidate === value)
}

/** The table's sorting state for the URL's sort. */
export function sortingOf(sort: string): SortingState {
  const desc = sort.startsWith('-')
  return [{ id: desc ? sort.slice(1) : sort, desc }]
}

/** The URL's sort for the table's sorting state: its first column when sortable, else `fallback`. */
export function sortOf<Key extends string>(
  sorting: SortingState,
  keys: readonly Key[],
  fallback: SortParam<Key>,
): SortParam<Key> {
  const first = sorting[0]
  const key = keys.find((candidate) => candidate === first?.id)
  if (!first || !key) return fallback
  return first.desc ? `-${key}` : key
}
