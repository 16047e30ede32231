import { z } from 'zod/mini'
import { emailFormSchema } from './auth-schemas'
import {
  PEOPLE_PAGE_SIZE_DEFAULT,
  PEOPLE_PAGE_SIZE_MAX,
  PEOPLE_QUERY_MAX,
  PEOPLE_SORT_DEFAULT,
  USER_ID_PATTERN,
  peopleSorts,
  yesNo,
} from './people'
import { positiveIntParam } from './query'

/** `GET /api/admin/users` query: search, filters, sort, page (from 1) and page size. */
export const peopleQuerySchema = z.object({
  q: z.optional(z.string().check(z.trim(), z.maxLength(PEOPLE_QUERY_MAX))),
  role: z.optional(z.enum(['user', 'admin'])),
  confirmed: z.optional(z.enum(yesNo)),
  mfa: z.optional(z.enum(yesNo)),
  disabled: z.optional(z.enum(yesNo)),
  sort: z._default(z.enum(peopleSorts), PEOPLE_SORT_DEFAULT),
  page: z._default(positiveIntParam(100_000), 1),
  pageSize: z._default(positiveIntParam(PEOPLE_PAGE_SIZE_MAX), PEOPLE_PAGE_SIZE_DEFAULT),
})

export const userIdSchema = z.string().check(z.regex(USER_ID_PATTERN))

/** better-auth's session ids (as `/api/me/sessions/{id}` takes them). */
export const sessionIdSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/))

export const roleChangeSchema = z.object({ role: z.enum(['user', 'admin']) })

/** `DELETE /api/admin/users/{id}`: the person's email, typed again. */
export const deleteConfirmationSchema = emailFormSchema
