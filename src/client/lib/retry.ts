import { isRetryable } from './http-error'

/** Reads: up to 3 attempts in all, only for network failures and 502/503/504. */
const MAX_READ_ATTEMPTS = 3

export function retryRead(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_READ_ATTEMPTS - 1 && isRetryable(error)
}

/** 0.5 s, 1 s, 2 s … capped at 8 s, with jitter so many clients do not retry in step. */
export function retryDelay(attempt: number): number {
  const base = Math.min(500 * 2 ** attempt, 8000)
  return base / 2 + Math.random() * (base / 2)
}

/**
 * A read outside React Query (the session) with the same retry policy, or with `retry`'s (which,
 * as React Query's, is asked after each failure with the failures before it).
 */
export async function withReadRetries<T>(
  read: () => Promise<T>,
  retry: (failureCount: number, error: unknown) => boolean = retryRead,
): Promise<T> {
  for (let failures = 0; ; failures++) {
    try {
      return await read()
    } catch (error) {
      if (!retry(failures, error)) throw error
      await new Promise((resolve) => setTimeout(resolve, retryDelay(failures)))
    }
  }
}
