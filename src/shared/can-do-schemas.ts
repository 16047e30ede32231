import { z } from 'zod/mini'
import { ANSWERS, SKILLS, STATEMENT_LANGUAGES, STATEMENT_TEXT_MAX, STATEMENTS_PER_CELL_MAX } from './can-do'
import { LEVEL_QUERY_MAX } from './levels'
import { rowIdText, rowNumber } from './query'

/** A statement's text in one language: trimmed, 1–300 characters. */
const statementText = z.string().check(z.trim(), z.minLength(1), z.maxLength(STATEMENT_TEXT_MAX))
const skillSchema = z.enum(SKILLS)

/** Both languages, both required. */
const texts = z.object({ en: statementText, ru: statementText })

/** What an administrator sends to add a statement (also the statement form's values): added last in its cell. */
export const statementInputSchema = z.object({ levelId: rowNumber(), skill: skillSchema, text: texts })
export type StatementInput = z.input<typeof statementInputSchema>

/**
 * A change of the texts, with the `version` the client read: 409 when the statement changed since.
 * Moving a statement to another level or skill is a delete and an add (its answers would not fit).
 */
export const statementPatchSchema = z.object({
  text: z.optional(z.object({ en: z.optional(statementText), ru: z.optional(statementText) })),
  version: rowNumber(),
})
export type StatementPatch = z.input<typeof statementPatchSchema>

/** The new order of one cell (a level and a skill): every statement id of it once, first to last. */
export const statementOrderSchema = z.object({
  levelId: rowNumber(),
  skill: skillSchema,
  ids: z.array(rowNumber()).check(
    z.maxLength(STATEMENTS_PER_CELL_MAX),
    z.refine((ids) => new Set(ids).size === ids.length, { message: 'Each statement may appear only once.' }),
    // For the OpenAPI document, which cannot read the refinement.
    z.meta({ uniqueItems: true }),
  ),
})
export type StatementOrder = z.input<typeof statementOrderSchema>

/** `GET /api/admin/can-do-statements`: filters by level and skill, and a search of both texts. */
export const statementListQuerySchema = z.object({
  levelId: z.optional(rowIdText()),
  skill: z.optional(skillSchema),
  q: z.optional(z.string().check(z.trim(), z.maxLength(LEVEL_QUERY_MAX))),
})
export type StatementListQuery = z.output<typeof statementListQuerySchema>

/** `GET /api/can-do-statements?lang=ru`: the texts in one interface language (English by default). */
export const statementSetQuerySchema = z.object({ lang: z._default(z.enum(STATEMENT_LANGUAGES), 'en') })

/** `POST /api/me/assessment/answers`: one statement of the assessment in progress, answered. */
export const answerInputSchema = z.object({ statementId: rowNumber(), answer: z.enum(ANSWERS) })
export type AnswerInput = z.input<typeof answerInputSchema>
