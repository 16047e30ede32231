import { z } from 'zod/mini'

/** A query-string integer from 1 to `max` (`?page=2`), as a number. */
export function positiveIntParam(max: number) {
  const digits = String(max).length
  return z.pipe(
    z.string().check(z.regex(new RegExp(`^\\d{1,${digits}}$`))),
    z.pipe(
      z.transform((value: string) => Number(value)),
      z.number().check(z.int(), z.minimum(1), z.maximum(max)),
    ),
  )
}
