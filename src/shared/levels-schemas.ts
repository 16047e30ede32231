import { z } from 'zod/mini'
import {
  LEVEL_CODE_MAX,
  LEVEL_CODE_PATTERN,
  LEVEL_DESCRIPTION_MAX,
  LEVEL_NAME_MAX,
  LEVEL_PAGE_SIZE_DEFAULT,
  LEVEL_PAGE_SIZE_MAX,
  LEVEL_QUERY_MAX,
  levelSorts,
} from './levels'
import { positiveIntParam, rowNumber } from './query'

const code = z
  .string()
  .check(
    z.trim(),
    z.minLength(1),
    z.maxLength(LEVEL_CODE_MAX),
    z.regex(LEVEL_CODE_PATTERN),
    // For the OpenAPI document: example generators cannot read the pattern's \p{…} classes.
    z.meta({ examples: ['B2'] }),
  )
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
  version: rowNumber(),
})
export type LevelPatch = z.input<typeof levelPatchSchema>

/** The new order of every level, as ids from first to last, each once. */
export const levelOrderSchema = z.object({
  ids: z.array(rowNumber()).check(
    z.maxLength(10_000),
    z.refine((ids) => new Set(ids).size === ids.length, { message: 'Each level may appear only once.' }),
    // For the OpenAPI document, which cannot read the refinement.
    z.meta({ uniqueItems: true }),
  ),
})

/** `GET /api/language-levels` query: search, sort, page (from 1) and page size. */
export const levelListQuerySchema = z.object({
  q: z.optional(z.string().check(z.trim(), z.maxLength(LEVEL_QUERY_MAX))),
  sort: z._default(z.enum(levelSorts), 'position'),
  page: z._default(positiveIntParam(100_000), 1),
  pageSize: z._default(positiveIntParam(LEVEL_PAGE_SIZE_MAX), LEVEL_PAGE_SIZE_DEFAULT),
})
export type LevelListQuery = z.output<typeof levelListQuerySchema>

