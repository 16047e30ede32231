/**
 * An error and its causes, at most 5 deep: a library wraps the error that matters (drizzle's
 * DrizzleQueryError around the driver's, ioredis's around its connection's).
 */
export function* errorChain(
  error: unknown,
): Generator<{ name?: unknown; code?: unknown; message?: unknown; constraint?: unknown; severity?: unknown }> {
  for (let e: unknown = error, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    yield e
    e = (e as { cause?: unknown }).cause
  }
}
