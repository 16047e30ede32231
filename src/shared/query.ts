import { z } from 'zod/mini'

/**
 * The largest value of the database's `integer` columns (ids, versions, positions): a number
 * above it cannot name a row, and PostgreSQL refuses to compare a 32-bit column with it (a 500).
 */
export const INT32_MAX = 2_147_483_647

/** An id or a version of a row: a positive integer its 32-bit column can hold. */
export const rowNumber = () => z.number().check(z.int(), z.minimum(1), z.maximum(INT32_MAX))

/**
 * An id as text (a path segment, `/levels/12`, or a query parameter, `?levelId=12`): digits without
 * a leading zero, as a number its column can hold.
 */
export const rowIdText = () =>
  z.pipe(
    z.string().check(z.regex(/^[1-9]\d{0,9}$/)),
    z.pipe(
      z.transform((value: string) => Number(value)),
      rowNumber(),
    ),
  )

/**
 * A pattern of the decimal numbers from 1 to `max`, without leading zeros (`^(?:[1-9]\d?|100)$`
 * for 100): the documented form of a query-string integer says exactly what the server takes.
 */
function rangePattern(max: number): string {
  const digits = String(max)
  const alternatives: string[] = []
  if (digits.length > 1) alternatives.push(`[1-9]\\d{0,${digits.length - 2}}`)
  for (let i = 0; i < digits.length; i++) {
    const low = i === 0 ? 1 : 0
    const high = Number(digits[i]) - 1
    if (high < low) continue
    const rest = digits.length - i - 1
    const range = low === high ? String(low) : `[${low}-${high}]`
    alternatives.push(`${digits.slice(0, i)}${range}${rest > 0 ? `\\d{${rest}}` : ''}`)
  }
  alternatives.push(digits)
  return `^(?:${alternatives.join('|')})$`
}

/** A query-string integer from 1 to `max` (`?page=2`), as a number. */
export function positiveIntParam(max: number) {
  return z.pipe(
    z.string().check(z.regex(new RegExp(rangePattern(max)))),
    z.pipe(
      z.transform((value: string) => Number(value)),
      z.number().check(z.int(), z.minimum(1), z.maximum(max)),
    ),
  )
}
