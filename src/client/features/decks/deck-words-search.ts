import { DECK_WORD_PAGE_SIZE_DEFAULT, type DeckWordSort, deckWordSorts } from '@/shared/decks'
import { WORD_QUERY_MAX } from '@/shared/words'
import { type SortParam, oneOf, pageParam, pageSizes, textParam } from '@/client/components/data-table/search-state'

/**
 * The deck page's words table in its URL: `?q=house&sort=-due&page=2&pageSize=20`. Read by the
 * route's `validateSearch`, so it stays free of zod (the route file is in the first page's
 * bundle): any value that is not valid becomes its default.
 */
export interface DeckWordsSearch {
  q: string
  sort: SortParam<DeckWordSort>
  page: number
  pageSize: number
}

export const QUERY_MAX = WORD_QUERY_MAX

const sortParams = deckWordSorts.flatMap((key) => [key, `-${key}`] as const)

/** The newest words first: the one just added is on top. */
export const deckWordsSearchDefaults = {
  q: '',
  sort: '-created',
  page: 1,
  pageSize: DECK_WORD_PAGE_SIZE_DEFAULT,
} satisfies DeckWordsSearch

export function validateDeckWordsSearch(search: Record<string, unknown>): DeckWordsSearch {
  return {
    q: textParam(search.q, QUERY_MAX),
    sort: oneOf(sortParams, search.sort) ?? deckWordsSearchDefaults.sort,
    page: pageParam(search.page) ?? deckWordsSearchDefaults.page,
    pageSize: oneOf(pageSizes, pageParam(search.pageSize)) ?? deckWordsSearchDefaults.pageSize,
  }
}
