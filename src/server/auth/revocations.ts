import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '@/server/db/client'
import { session } from '@/server/db/schema'
import type { Auth } from './auth'

/**
 * Accounts whose sessions were just ended (signed out everywhere by an administrator, disabled,
 * deleted), on every instance (told through events/bus.ts). better-auth answers a request from its
 * signed session cache cookie, without the database, for up to SESSION_CACHE_SECONDS: for such an
 * account the cookie is not trusted (app.ts drops it), so the request is answered from the store,
 * where the session no longer exists. The access ends at once, not a minute later.
 */
export class Revocations {
  readonly #until = new Map<string, number>()
  #allUntil = 0
  readonly #windowMs: number
  readonly #now: () => number

  /** `windowMs`: how long a cache cookie lives (after that, better-auth asks the store anyway). */
  constructor(windowMs: number, now: () => number = Date.now) {
    this.#windowMs = windowMs
    this.#now = now
  }

  revoke(userId: string): void {
    this.#prune()
    this.#until.set(userId, this.#now() + this.#windowMs)
  }

  /** Events may have been missed: no cache cookie is trusted for a while. */
  revokeAll(): void {
    this.#allUntil = this.#now() + this.#windowMs
  }

  isRevoked(userId: string): boolean {
    const now = this.#now()
    if (now < this.#allUntil) return true
    const until = this.#until.get(userId)
    return until !== undefined && now < until
  }

  #prune(): void {
    const now = this.#now()
    for (const [userId, until] of this.#until) if (until <= now) this.#until.delete(userId)
  }
}

/**
 * With Redis, better-auth keeps a copy of the account with each session there and answers from it:
 * after a change of role or access (made by any instance, or the CLI), the copies are written again
 * from the database, so that a request whose cache cookie was dropped sees the account as it is.
 *
 * better-auth's refresh reads each stored session and writes it back: a session ended meanwhile
 * (read before its deletion, written after it — a disable or "sign out everywhere" racing with the
 * refresh of an earlier change, on any instance) would come back in Redis and go on answering. The
 * database holds every session (`storeSessionInDatabase`) and ends it before Redis: whatever the
 * refresh may have written that the database no longer has is deleted again.
 */
export async function refreshStoredSessions(auth: Auth, db: Db, userId: string): Promise<void> {
  const { internalAdapter, secondaryStorage } = await auth.$context
  if (!secondaryStorage) return
  const current = await internalAdapter.findUserById(userId)
  if (!current) return
  // better-auth's list of the account's stored sessions, which its refresh walks.
  const listed = await secondaryStorage.get(`active-sessions-${userId}`)
  await internalAdapter.refreshUserSessions(current)
  const written = storedTokens(listed)
  if (written.length === 0) return
  const alive = await db
    .select({ token: session.token })
    .from(session)
    .where(and(eq(session.userId, userId), inArray(session.token, written)))
  const kept = new Set(alive.map((row) => row.token))
  for (const token of written) if (!kept.has(token)) await secondaryStorage.delete(token)
}

function storedTokens(listed: unknown): string[] {
  if (typeof listed !== 'string') return []
  try {
    const parsed: unknown = JSON.parse(listed)
    if (!Array.isArray(parsed)) return []
    return parsed.flatMap((entry: unknown) =>
      entry && typeof entry === 'object' && typeof (entry as { token?: unknown }).token === 'string'
        ? [(entry as { token: string }).token]
        : [],
    )
  } catch {
    return []
  }
}
