import { z } from 'zod/mini'
import { positiveIntParam } from './query'

/** PRODUCT §4: a language level's fields and their bounds. */
export const LEVEL_CODE_MAX = 16
export const LEVEL_NAME_MAX = 100
export const LEVEL_DESCRIPTION_MAX = 2000
/** Letters, digits and `+ . _ -` (e.g. `B2`, `C1+`). */
export const LEVEL_CODE_PATTERN = /^[\p{L}\p{N}+._-]+$/u

export const LEVEL_PAGE_SIZE_DEFAULT = 20
export const LEVEL_PAGE_SIZE_MAX = 100
export const LEVEL_QUERY_MAX = 100

const code = z
  .string()
  .check(z.trim(), z.minLength(1), z.maxLength(LEVEL_CODE_MAX), z.regex(LEVEL_CODE_PATTERN))
const name = z.string().check(z.trim(), z.minLength(1), z.maxLength(LEVEL_NAME_MAX))
const description = z.string().check(z.trim(), z.maxLength(LEVEL_DESCRIPTION_MAX))

/** What an administrator sends to create a level (also the level form's values). */
export const levelInputSchema = z.object({ code, name, description: z._default(description, '') })
export type LevelInput = z.input<typeof levelInputSchema>

/**
 * A change of some fields, with the `version` the client read: the server refuses it with 409 when
 * the level changed since (no lost update).
 */
export const levelPatchSchema = z.object({
  code: z.optional(code),
  name: z.optional(name),
  description: z.optional(description),
  version: z.number().check(z.int(), z.positive()),
})
export type LevelPatch = z.input<typeof levelPatchSchema>

/** The new order of every level, as ids from first to last. */
export const levelOrderSchema = z.object({
  ids: z.array(z.number().check(z.int(), z.positive())).check(z.maxLength(10_000)),
})
export type LevelOrder = z.infer<typeof levelOrderSchema>

export const levelSortKeys = ['position', 'code', 'name', 'updatedAt'] as const
export type LevelSortKey = (typeof levelSortKeys)[number]
/** `code` sorts ascending, `-code` descending. */
export const levelSorts = levelSortKeys.flatMap((key) => [key, `-${key}`] as const)
export type LevelSort = (typeof levelSorts)[number]

/** `GET /api/language-levels` query: search, sort, page (from 1) and page size. */
export const levelListQuerySchema = z.object({
  q: z.optional(z.string().check(z.trim(), z.maxLength(LEVEL_QUERY_MAX))),
  sort: z._default(z.enum(levelSorts), 'position'),
  page: z._default(positiveIntParam(100_000), 1),
  pageSize: z._default(positiveIntParam(LEVEL_PAGE_SIZE_MAX), LEVEL_PAGE_SIZE_DEFAULT),
})
export type LevelListQuery = z.output<typeof levelListQuerySchema>

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

/** How many learners have a level as their current or target level (said before deleting it). */
export interface LevelUsage {
  learners: number
}
