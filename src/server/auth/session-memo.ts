import { createHash } from 'node:crypto'

/**
 * The memo behind `readSession` (session.ts). better-auth answers a request that carries a valid
 * signed cache cookie (`lingua.session_data`) without the database, but still spends about half a
 * millisecond of CPU on it (a context per call, an HMAC check of each cookie with a key import):
 * more than the route itself. The same cookies give the same answer until the cache cookie
 * expires, so that answer is kept, keyed by the exact values of the two cookies, and only until
 * the cache cookie's own `expiresAt`. The 60 s revocation bound is therefore unchanged: the memo
 * answers only what better-auth would answer from the cookie itself, and never once better-auth
 * would have refused it.
 */

/**
 * A map with a bounded number of entries, each with its own expiry time. A read of an expired
 * entry removes it; beyond `maxEntries`, the least recently read (or written) entry goes.
 */
export class ExpiringLru<T> {
  readonly #entries = new Map<string, { value: T; expiresAt: number }>()
  readonly #maxEntries: number
  readonly #now: () => number

  constructor(options: { maxEntries: number; now?: () => number }) {
    if (!(options.maxEntries >= 1)) throw new RangeError('maxEntries must be at least 1')
    this.#maxEntries = options.maxEntries
    this.#now = options.now ?? Date.now
  }

  get size(): number {
    return this.#entries.size
  }

  get(key: string): T | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    this.#entries.delete(key)
    if (entry.expiresAt <= this.#now()) return undefined
    // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
    this.#entries.set(key, entry)
    return entry.value
  }

  /** Keeps `value` until `expiresAt` (milliseconds since the epoch); a past time keeps nothing. */
  set(key: string, value: T, expiresAt: number): void {
    this.#entries.delete(key)
    if (!(expiresAt > this.#now())) return
    this.#entries.set(key, { value, expiresAt })
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next()
      if (oldest.done) break
      this.#entries.delete(oldest.value)
    }
  }

  clear(): void {
    this.#entries.clear()
  }
}

/** The names of better-auth's session cookies (with the `__Secure-` prefix over HTTPS). */
export interface SessionCookieNames {
  token: string
  cache: string
}

/** The session cookies of a request that has both, as sent, and the memo key they make. */
export interface SessionCookies {
  key: string
  token: string
  cache: string
}

/**
 * The session token and cache cookie of a `Cookie` header, read as better-auth reads them
 * (better-call's parser: split on `;` and the first `=`, trimmed, quotes removed,
 * percent-decoded). `undefined` — so no memo, better-auth decides — unless the request carries
 * exactly one of each: no cache cookie, a name sent twice (parsers may disagree on which one
 * counts), or a cache cookie in chunks (`….session_data.0`, …).
 */
export function readSessionCookies(
  cookieHeader: string | null | undefined,
  names: SessionCookieNames,
): SessionCookies | undefined {
  if (!cookieHeader) return undefined
  let token: string | undefined
  let cache: string | undefined
  const chunkPrefix = `${names.cache}.`
  for (const pair of cookieHeader.split(';')) {
    const equals = pair.indexOf('=')
    if (equals === -1) continue
    const name = pair.slice(0, equals).trim()
    if (name === names.token) {
      if (token !== undefined) return undefined
      token = cookieValue(pair.slice(equals + 1))
    } else if (name === names.cache) {
      if (cache !== undefined) return undefined
      cache = cookieValue(pair.slice(equals + 1))
    } else if (name.startsWith(chunkPrefix)) {
      return undefined
    }
  }
  if (!token || !cache) return undefined
  // A digest, not the values: a key of fixed size that keeps no part of the request alive.
  const key = createHash('sha256').update(token).update('\n').update(cache).digest('base64url')
  return { key, token, cache }
}

function cookieValue(raw: string): string {
  let value = raw.trim()
  if (value.startsWith('"')) value = value.slice(1, -1)
  if (!value.includes('%')) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/**
 * Until when an answer better-auth has just given from `cache` (a compact cache cookie:
 * base64url JSON `{ session: { session, user }, expiresAt, signature }`) may be reused: the
 * cookie's `expiresAt`, or the session's own expiry if sooner. Only for a value better-auth has
 * accepted — the signature is not checked here. `undefined` when the cookie does not describe
 * that answer's session and user, or holds no usable times.
 */
export function cacheCookieExpiry(
  cache: string,
  answer: { session: { id: string }; user: { id: string } },
): number | undefined {
  let payload: unknown
  try {
    payload = JSON.parse(Buffer.from(cache, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
  if (!isRecord(payload) || !isRecord(payload.session)) return undefined
  const { session, user } = payload.session
  if (!isRecord(session) || !isRecord(user)) return undefined
  if (session.id !== answer.session.id || user.id !== answer.user.id) return undefined
  const cookieExpiresAt = payload.expiresAt
  const sessionExpiresAt = typeof session.expiresAt === 'string' ? Date.parse(session.expiresAt) : Number.NaN
  if (typeof cookieExpiresAt !== 'number' || !Number.isFinite(cookieExpiresAt) || Number.isNaN(sessionExpiresAt)) {
    return undefined
  }
  return Math.min(cookieExpiresAt, sessionExpiresAt)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/**
 * The user id a session cache cookie names (unchecked: only to decide not to trust it), if any.
 */
function cacheCookieUserId(value: string): string | undefined {
  try {
    const payload: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'))
    if (!isRecord(payload) || !isRecord(payload.session) || !isRecord(payload.session.user)) return undefined
    const { id } = payload.session.user
    return typeof id === 'string' ? id : undefined
  } catch {
    return undefined
  }
}

/**
 * For the Cookie header: the same header without the session cache cookies (or chunks of one)
 * that are not to be used, `undefined` when there is none:
 * - a value that is not base64url, as better-auth writes them: its decoder throws on such a value
 *   (a 500);
 * - every one, when the cookie's user is `revoked` (auth/revocations.ts): better-auth would answer
 *   from it without the store, where the session is gone.
 * Without them, the session is read from its token as usual.
 */
export function untrustedCacheCookieRemover(
  prefix: string,
  revoked: (userId: string) => boolean,
): (cookieHeader: string) => string | undefined {
  const cacheName = new RegExp(`^(?:__Secure-)?${prefix.replace(/\W/g, '\\$&')}\\.session_data(?:\\.(\\d+))?$`)
  return (cookieHeader) => {
    const pairs = cookieHeader.split(';').map((pair) => {
      const equals = pair.indexOf('=')
      const name = equals === -1 ? undefined : cacheName.exec(pair.slice(0, equals).trim())
      return { pair, cache: name ? { chunk: Number(name[1] ?? 0), value: cookieValue(pair.slice(equals + 1)) } : undefined }
    })
    const caches = pairs.flatMap(({ cache }) => (cache ? [cache] : []))
    if (caches.length === 0) return undefined
    // A cookie in chunks is read as better-auth joins them: in the order of their numbers.
    const joined = caches
      .toSorted((a, b) => a.chunk - b.chunk)
      .map((cache) => cache.value)
      .join('')
    const userId = cacheCookieUserId(joined)
    const dropAll = userId !== undefined && revoked(userId)
    const kept = pairs.filter(({ cache }) => !cache || (!dropAll && /^[\w-]*$/.test(cache.value)))
    return kept.length === pairs.length ? undefined : kept.map(({ pair }) => pair).join(';').trim()
  }
}
