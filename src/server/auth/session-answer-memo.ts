import { ExpiringLru, type SessionCookieNames, cacheCookieExpiry, readSessionCookies } from './session-memo'

/** Answers kept at most (a kilobyte or so each); beyond, the least recently used goes. */
const MAX_ANSWERS = 10_000

interface KeptAnswer {
  body: string
  headers: [string, string][]
}

/**
 * better-auth's `GET /get-session`, which every signed-in page asks once as it starts, costs about
 * 2 ms of CPU even when it answers from the signed cache cookie (its router is built again for
 * each request, and each of the two cookies is checked with an HMAC whose key is imported each
 * time): some 500 answers a second on two cores, against thousands for the app's own routes.
 *
 * The same two cookies get the same answer until the cache cookie expires (with a database,
 * better-auth never refreshes that cookie in place), so the answer as it went out is kept, keyed by
 * the two cookies' exact values, as `readSession` keeps the user (session-memo.ts), and only:
 * - when better-auth answered 200 with a session and set no cookie — it sets one whenever it does
 *   not answer from the cache cookie as sent (a forged, stale or foreign one is expired; an answer
 *   from the database issues a new one);
 * - until that cookie's own expiry (or the session's, if sooner), and never longer than a cache
 *   cookie lives (`cacheMs`).
 * A revoked account's cache cookie is dropped before this (app.ts), so its requests are never
 * answered from here. A kept answer still counts against the address's rate limit (`count`); over
 * it, the request goes to better-auth, which refuses it.
 */
export function sessionAnswerMemo(options: {
  cookieNames: () => Promise<SessionCookieNames>
  cacheMs: number
  /** Counts the request against its address's limit in better-auth's counters; false when over. */
  count: (request: Request) => Promise<boolean>
  maxAnswers?: number
  now?: () => number
}): (request: Request, answer: (request: Request) => Promise<Response>) => Promise<Response> {
  const now = options.now ?? Date.now
  const kept = new ExpiringLru<KeptAnswer>({ maxEntries: options.maxAnswers ?? MAX_ANSWERS, now })
  return async (request, answer) => {
    const cookies = readSessionCookies(request.headers.get('cookie'), await options.cookieNames())
    if (!cookies) return answer(request)
    const hit = kept.get(cookies.key)
    if (hit && (await options.count(request))) return new Response(hit.body, { status: 200, headers: hit.headers })

    const response = await answer(request)
    if (response.status !== 200 || response.headers.getSetCookie().length > 0) return response
    const body = await response.text()
    const session = sessionOf(body)
    const expiresAt = session && cacheCookieExpiry(cookies.cache, session)
    if (expiresAt !== undefined) {
      const headers = [...response.headers].filter(([name]) => name !== 'content-length')
      kept.set(cookies.key, { body, headers }, Math.min(expiresAt, now() + options.cacheMs))
    }
    return new Response(body, response)
  }
}

/** The session and user ids of a get-session answer (`null` when signed out, or not JSON). */
function sessionOf(body: string): { session: { id: string }; user: { id: string } } | undefined {
  try {
    const parsed = JSON.parse(body) as { session?: { id?: unknown }; user?: { id?: unknown } } | null
    const sessionId = parsed?.session?.id
    const userId = parsed?.user?.id
    return typeof sessionId === 'string' && typeof userId === 'string'
      ? { session: { id: sessionId }, user: { id: userId } }
      : undefined
  } catch {
    return undefined
  }
}
