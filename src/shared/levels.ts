/**
 * Language levels: bounds, sorts and the API's answer types. No zod here, so that the client's
 * first page can use them without loading the validation library (`levels-schemas.ts` has the schemas).
 */

/** A language level's fields and their bounds (docs/product.md §4). */
export const LEVEL_CODE_MAX = 16
export const LEVEL_NAME_MAX = 100
export const LEVEL_DESCRIPTION_MAX = 2000
/** Letters, digits and `+ . _ -` (e.g. `B2`, `C1+`). */
export const LEVEL_CODE_PATTERN = /^[\p{L}\p{N}+._-]+$/u

export const LEVEL_PAGE_SIZE_DEFAULT = 20
export const LEVEL_PAGE_SIZE_MAX = 100
export const LEVEL_QUERY_MAX = 100

export const levelSortKeys = ['position', 'code', 'name', 'updatedAt'] as const
/** `code` sorts ascending, `-code` descending. */
export const levelSorts = levelSortKeys.flatMap((key) => [key, `-${key}`] as const)
export type LevelSort = (typeof levelSorts)[number]

/** A level as the API answers it (dates as ISO strings). */
export interface LanguageLevel {
  id: number
  code: string
  name: string
  description: string
  position: number
  version: number
  createdAt: string
  updatedAt: string
  createdBy: string | null
  updatedBy: string | null
}

export interface LevelPage {
  items: LanguageLevel[]
  /** Levels matching the search, over all pages. */
  total: number
  page: number
  pageSize: number
}

/**
 * What deleting a level touches (said before deleting it): the learners who have it as their
 * current or target level, and the can-do statements and words that go with it.
 */
export interface LevelUsage {
  learners: number
  statements: number
  words: number
}
