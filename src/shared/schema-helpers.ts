import { z } from 'zod/mini'

/** Text trimmed, then between `min` and `max` characters long. */
export const trimmedText = (min: number, max: number) => z.string().check(z.trim(), z.minLength(min), z.maxLength(max))

/** Empty text is no value: the column is null. */
export const optionalText = (max: number) =>
  z.pipe(
    z.nullable(z.string().check(z.trim(), z.maxLength(max))),
    z.transform((value: string | null) => (value ? value : null)),
  )
