import { z } from 'zod/mini'
import { SKILLS } from '@/shared/can-do'
import type { CsvRefusal } from '@/shared/csv'
import { type ApiErrorBody, errorCodes } from '@/shared/errors'

/**
 * The API's answers, for the OpenAPI document only: requests are documented by the shared schemas
 * that validate them, answers by schemas made with `answer`. The answer types stay plain interfaces
 * in src/shared (the client's first page must not load zod); each schema is checked at compile time
 * to describe exactly its type, so the two cannot drift. Each area's schemas are beside its routes
 * (api/<area>/docs.ts), found by the document through the routes' `describe`; here is what every
 * area shares: the error shape, a refused row of a CSV import and the common kinds of value.
 */

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

/**
 * Names a schema as a component of the document (`#/components/schemas/<id>`) and checks that its
 * output is exactly `T`: a schema that differs from its type does not compile (its argument
 * becomes `never`).
 */
export function answer<T>(id: string, description: string) {
  return <S extends z.ZodMiniType>(schema: S & (Same<z.output<S>, T> extends true ? unknown : never)): S => {
    z.globalRegistry.add(schema, { id, description })
    return schema
  }
}

// An example, as generators would otherwise make one up from zod's long ISO pattern.
export const isoDateTime = z.iso.datetime({ offset: true }).check(z.meta({ examples: ['2026-01-31T09:30:00.000Z'] }))
export const count = z.number().check(z.int(), z.minimum(0))
export const positiveInt = z.number().check(z.int(), z.minimum(1))
export const isoDate = z.iso.date().check(z.meta({ examples: ['2026-01-31'] }))
/** The audit's before/after: any JSON (a level, a role, an order). */
export const anyJson = z.unknown()
/** A skill of the self-assessment: its statements, its results, a refused row of their CSV. */
export const skill = z.enum(SKILLS)

export const apiErrorSchema = answer<ApiErrorBody>(
  'ApiError',
  'The one shape of every failure. `fields` maps a field (dotted path) to its messages.',
)(
  z.object({
    error: z.object({
      code: z.enum(errorCodes),
      message: z.string(),
      fields: z.optional(z.record(z.string(), z.array(z.string()))),
    }),
  }),
)

/** A column of the file, by its header name (the same in every language). */
const csvColumn = z.string().check(z.meta({ examples: ['text_en'] }))

export const csvRefusalSchema = answer<CsvRefusal>(
  'CsvRefusal',
  'A refused row of a CSV import: its line (the header is line 1), every problem as data (for a page to say in its language), and all of them in English in `reason`.',
)(
  z.object({
    line: positiveInt,
    reason: z.string(),
    problems: z.array(
      z.discriminatedUnion('code', [
        z.object({ code: z.literal('unreadable'), detail: z.string() }),
        z.object({ code: z.literal('columnCount'), expected: positiveInt, found: count }),
        z.object({ code: z.literal('empty'), column: csvColumn }),
        z.object({ code: z.literal('tooLong'), column: csvColumn, max: positiveInt }),
        z.object({ code: z.literal('nul'), column: csvColumn }),
        z.object({ code: z.literal('notOneOf'), column: csvColumn, values: z.array(z.string()) }),
        z.object({ code: z.literal('invalid'), column: csvColumn }),
        z.object({ code: z.literal('unknownLevel'), value: z.string() }),
        z.object({ code: z.literal('notPosition'), column: csvColumn, max: positiveInt }),
        z.object({ code: z.literal('statementExists'), level: z.string(), skill }),
        z.object({ code: z.literal('cellFull'), level: z.string(), skill, max: positiveInt }),
        z.object({ code: z.literal('sameAsLine'), line: positiveInt }),
        z.object({ code: z.literal('wordOfLevel'), level: z.string() }),
      ]),
    ),
  }),
)
