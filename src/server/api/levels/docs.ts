import { z } from 'zod/mini'
import type { LanguageLevel, LevelPage, LevelUsage } from '@/shared/levels'
import { describe, json } from '@/server/openapi/describe'
import { answer, count, isoDateTime, positiveInt } from '@/server/openapi/schemas'

const tags = ['Language levels']

const languageLevelSchema = answer<LanguageLevel>('LanguageLevel', 'A language level.')(
  z.object({
    id: positiveInt,
    code: z.string(),
    name: z.string(),
    description: z.string(),
    position: count,
    version: positiveInt,
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    createdBy: z.nullable(z.string()),
    updatedBy: z.nullable(z.string()),
  }),
)

const levelListSchema = answer<LanguageLevel[]>('LanguageLevels', 'Every level, in their order.')(
  z.array(languageLevelSchema),
)

const levelPageSchema = answer<LevelPage>(
  'LanguageLevelPage',
  'One page of levels; `total` counts the matches over all pages.',
)(z.object({ items: z.array(languageLevelSchema), total: count, page: positiveInt, pageSize: positiveInt }))

const levelUsageSchema = answer<LevelUsage>(
  'LanguageLevelUsage',
  'How many learners have the level as their current or target level, and how many statements and words go with it when it is deleted.',
)(z.object({ learners: count, statements: count, words: count }))

/** The public reads answer from a cache every instance empties on a change, with an entity tag. */
const cached = {
  headers: { ETag: { description: 'The version of this answer: send it as `If-None-Match` to get 304 while it holds.', schema: { type: 'string' as const } } },
}
const notModified = { 304: { description: 'Not modified: the copy named by `If-None-Match` is current.', ...cached } }

export const describeList = describe({
  operationId: 'listLanguageLevels',
  summary: 'Search, sort and page the levels',
  description: '`q` searches code, name and description, ignoring case. Public; `ETag` and 304 with `If-None-Match`.',
  tags,
  access: 'public',
  responses: { 200: { ...json(levelPageSchema, 'One page of levels.'), ...cached }, ...notModified },
  errors: [503],
})

export const describeGet = describe({
  operationId: 'getLanguageLevel',
  summary: 'One level',
  description: 'Public; `ETag` and 304 with `If-None-Match`. An id that is not a positive integer is 404, like an id with no level.',
  tags,
  access: 'public',
  responses: { 200: { ...json(languageLevelSchema, 'The level.'), ...cached }, ...notModified },
  errors: [404, 503],
})

export const describeUsage = describe({
  operationId: 'getLanguageLevelUsage',
  summary: 'How many learners, statements and words a level has',
  description:
    'Said before deleting it: the learners whose current or target level it is, and the can-do statements and words deleted with it.',
  tags,
  access: 'admin',
  responses: { 200: json(levelUsageSchema, 'The count.') },
  errors: [404, 503],
})

export const describeCreate = describe({
  operationId: 'createLanguageLevel',
  summary: 'Create a level',
  description: 'Added last in the order. Codes are unique ignoring case (409 on `code`).',
  tags,
  access: 'admin',
  responses: {
    201: {
      ...json(languageLevelSchema, 'The new level.'),
      headers: { Location: { description: 'The URL of the new level.', schema: { type: 'string' } } },
    },
  },
  errors: [409, 503],
})

export const describePatch = describe({
  operationId: 'updateLanguageLevel',
  summary: 'Change a level',
  description:
    'Sends the `version` it read: 409 when the level changed since (no lost update), or when the new code is taken.',
  tags,
  access: 'admin',
  responses: { 200: json(languageLevelSchema, 'The level, its version one higher.') },
  errors: [404, 409, 503],
})

export const describeDelete = describe({
  operationId: 'deleteLanguageLevel',
  summary: 'Delete a level',
  description: 'The learners who had it lose it; the other levels close the gap in the order.',
  tags,
  access: 'admin',
  responses: { 204: { description: 'Deleted.' } },
  errors: [404, 503],
})

export const describeOrder = describe({
  operationId: 'reorderLanguageLevels',
  summary: 'Put the levels in a new order',
  description:
    'Every level id once, first to last; 409 when levels were added or deleted since they were read.',
  tags,
  access: 'admin',
  responses: { 200: json(levelListSchema, 'Every level, in the new order.') },
  errors: [409, 503],
})
