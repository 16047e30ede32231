import { WORD_PAGE_SIZE_DEFAULT, WORD_QUERY_MAX } from '@/shared/words'
import { oneOf, pageParam, pageSizes, textParam } from '@/client/components/data-table/search-state'

/**
 * The "Words" table's state in the level page's URL: `?q=house&page=2&pageSize=20`. Read by the
 * route's `validateSearch`, so it stays free of zod (the route file is in the first page's bundle):
 * any value that is not valid becomes its default.
 */
export interface WordsSearch {
  q: string
  page: number
  pageSize: number
}

export const wordsSearchDefaults = {
  q: '',
  page: 1,
  pageSize: WORD_PAGE_SIZE_DEFAULT,
} satisfies WordsSearch

export function validateWordsSearch(search: Record<string, unknown>): WordsSearch {
  return {
    q: textParam(search.q, WORD_QUERY_MAX),
    page: pageParam(search.page) ?? wordsSearchDefaults.page,
    pageSize: oneOf(pageSizes, pageParam(search.pageSize)) ?? wordsSearchDefaults.pageSize,
  }
}
