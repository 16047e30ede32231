import { type ErrorStatus, errorRef } from './describe'

/** The parts of a generated document that the app completes (document.ts, auth-operations.ts). */
export type Operation = Record<string, unknown> & {
  summary?: string
  tags?: string[]
  security?: Record<string, string[]>[]
  parameters?: { in?: string; $ref?: string }[]
  requestBody?: unknown
  responses?: Record<string, unknown>
}
export type PathItem = Partial<Record<string, Operation>>

export type JsonSchema = Record<string, unknown>

export const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Sets the failures an operation answers, as references to the error responses. */
export function setFailures(operation: Operation, statuses: ErrorStatus[]) {
  const responses = { ...operation.responses }
  for (const status of statuses) responses[status] = errorRef(status)
  // In order of status, as a reader looks for them.
  operation.responses = Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)),
  )
}
