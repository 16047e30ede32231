import { errorChain } from '@/server/error-chain'

const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08006',
])

/** Whether an error means the database cannot be reached (answer 503, not 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const { code, message, severity } of errorChain(error)) {
    if (typeof code === 'string' && unavailableCodes.has(code)) return true
    // PostgreSQL ends the session with a FATAL error: it does not take connections to this
    // database now (55000, "not currently accepting connections"), is starting or stopping, or
    // refuses the login. No query of this request can run.
    if (severity === 'FATAL') return true
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|Query read timeout|is not queryable/i.test(
        message,
      )
    )
      return true
  }
  return false
}

/**
 * Two transactions got in each other's way (a deadlock, or a serialization failure): PostgreSQL
 * aborted this one. Nothing was written; the same request may simply be sent again.
 */
export function isTransactionConflict(error: unknown): boolean {
  for (const { code } of errorChain(error)) {
    if (code === '40P01' || code === '40001') return true
  }
  return false
}

/** Integrity violations the API answers as the client's error (PostgreSQL's SQLSTATE codes). */
export const UNIQUE_VIOLATION = '23505'
export const FOREIGN_KEY_VIOLATION = '23503'

/** The name of the constraint (or unique index) an error violated with `sqlState`, if it did. */
export function violatedConstraint(
  error: unknown,
  sqlState: typeof UNIQUE_VIOLATION | typeof FOREIGN_KEY_VIOLATION,
): string | undefined {
  for (const { code, constraint } of errorChain(error)) {
    if (code === sqlState && typeof constraint === 'string') return constraint
  }
  return undefined
}
