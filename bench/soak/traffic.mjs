// The traffic: the kinds of request with their shares and counters, one request sent and recorded,
// and the action of each kind (what a learner's or the administrator's page would send).
import { cookieString, responseCookies } from '../lib.mjs'
import { password, pick, random, timeoutMs } from './options.mjs'

// --- Figures --------------------------------------------------------------------------------------

/**
 * The kinds of request, with their share of the scheduled rate and the statuses that are right.
 * A sign-out is not scheduled: it follows each sign-in (the session it replaces), as a browser's
 * user signs out before signing in again, so that sessions do not pile up on a few accounts.
 */
export const kinds = {
  signIn: { label: 'POST /api/auth/sign-in/email', weight: 4, expect: [200] },
  signOut: { label: 'POST /api/auth/sign-out (after sign-in)', weight: 0, expect: [200] },
  me: { label: 'GET /api/me', weight: 22, expect: [200] },
  getSession: { label: 'GET /api/auth/get-session', weight: 22, expect: [200] },
  list: { label: 'GET /api/language-levels', weight: 20, expect: [200] },
  level: { label: 'GET /api/language-levels/:id', weight: 12, expect: [200] },
  profile: { label: 'PUT /api/me/profile', weight: 12, expect: [200] },
  edit: { label: 'PATCH /api/language-levels/:id', weight: 6, expect: [200] },
  staleEdit: { label: 'PATCH …/:id, stale version (409)', weight: 2, expect: [409] },
}
for (const kind of Object.values(kinds)) {
  Object.assign(kind, {
    requests: 0,
    expected: 0,
    otherClientErrors: new Map(), // status → count
    failures: new Map(), // reason → count
    warmupFailures: 0,
    latencies: [], // ms, after the warm-up
  })
}
const scheduled = Object.entries(kinds).filter(([, kind]) => kind.weight > 0)
const totalWeight = scheduled.reduce((sum, [, kind]) => sum + kind.weight, 0)
export function pickKind() {
  let r = random() * totalWeight
  for (const [name, kind] of scheduled) if ((r -= kind.weight) < 0) return name
  return scheduled[0][0]
}
export const increment = (map, key) => map.set(key, (map.get(key) ?? 0) + 1)
export const totalRequests = () => Object.values(kinds).reduce((sum, k) => sum + k.requests, 0)
export const sumMap = (map) => [...map.values()].reduce((a, b) => a + b, 0)
export const totalFailures = () => Object.values(kinds).reduce((sum, k) => sum + sumMap(k.failures), 0)

// --- One request ---------------------------------------------------------------------------------

/** Updates a cookie jar (Map name → value) from the cookies a response sets or deletes. */
function keepCookies(jar, response) {
  for (const [name, value] of Object.entries(responseCookies(response))) {
    if (value) jar.set(name, value)
    else jar.delete(name)
  }
}

/** The public origin every write carries (set at start-up), and when the warm-up ends (set by the drive). */
export const run = { appUrl: undefined, warmupEndsAt: Number.POSITIVE_INFINITY }
/** The two instances: { name, server, url, probeFile, probeLines, requests, failures, latencies }. */
export const instances = []
/** The requests under way (the drive's, until they settle). */
export const inFlight = new Set()

/**
 * Sends one request of `kindName` to `instance` as the app's page would (Origin APP_URL on writes,
 * the jar's cookies), with a timeout, and records its outcome. `check(json)` says whether an
 * expected 2xx carries the right answer. Resolves to { status, json } (status 0 on failure).
 */
async function send(kindName, instance, method, pathname, { jar, body, check } = {}) {
  const kind = kinds[kindName]
  const inWarmup = performance.now() < run.warmupEndsAt
  const started = performance.now()
  let status = 0
  let json
  let failure
  try {
    const cookie = jar && jar.size > 0 ? cookieString(Object.fromEntries(jar)) : undefined
    const response = await fetch(instance.url + pathname, {
      method,
      headers: {
        Accept: 'application/json',
        ...(method === 'GET' ? {} : { Origin: run.appUrl }),
        ...(body ? { 'Content-Type': 'application/json' } : {}),
        ...(cookie ? { Cookie: cookie } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await response.text()
    status = response.status
    if (jar) keepCookies(jar, response)
    if (response.headers.get('content-type')?.includes('json') && text) {
      try {
        json = JSON.parse(text)
      } catch {
        failure = `${status}, unreadable JSON`
      }
    }
    if (status >= 500) failure = `${status} ${json?.error?.code ?? ''}`.trim()
    else if (kind.expect.includes(status) && status < 300 && check && !check(json)) failure ??= `${status}, wrong answer: ${summarize(json)}`
    else if (status < 400 && !kind.expect.includes(status)) failure = `${status} instead of ${kind.expect.join('/')}`
  } catch (error) {
    failure = error?.name === 'TimeoutError' ? `timeout (${timeoutMs / 1000} s)` : `network: ${error?.cause?.code ?? error?.message}`
  }
  const ms = performance.now() - started
  kind.requests++
  instance.requests++
  if (failure) {
    increment(kind.failures, failure)
    instance.failures++
    if (inWarmup) kind.warmupFailures++
  } else if (kind.expect.includes(status)) kind.expected++
  else increment(kind.otherClientErrors, status)
  if (!inWarmup) {
    kind.latencies.push(ms)
    instance.latencies.push(ms)
  }
  return { status: failure ? 0 : status, json }
}

// --- The traffic ---------------------------------------------------------------------------------

/** The learners ({ email, jar, signingIn }), the administrator ({ jar }) and the levels, set up before the traffic. */
export const learners = []
export const admin = { jar: new Map() }
export const levels = []

/** What a wrong answer was, short enough for the failure's reason (whose session, or the JSON). */
function summarize(json) {
  if (typeof json?.user?.email === 'string') return `the session of ${json.user.email}`
  const text = JSON.stringify(json) ?? 'no body'
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

/**
 * The learner's own session; or none (`null`) when the cookies sent were those of a session the
 * learner has signed out meanwhile (a sign-in replaced them while the request was under way).
 */
const ownSession = (learner) => {
  const sent = learner.jar
  return (json) => json?.user?.email === learner.email || (json === null && learner.jar !== sent)
}

export const actions = {
  async signIn(instance) {
    // A learner not signing in already: two sign-ins at once would both sign out the same session.
    const learner = pick(learners.filter((l) => !l.signingIn)) ?? pick(learners)
    learner.signingIn = true
    try {
      const fresh = new Map()
      const { status } = await send('signIn', instance, 'POST', '/api/auth/sign-in/email', {
        jar: fresh,
        body: { email: learner.email, password },
        check: (json) => json?.user?.email === learner.email,
      })
      if (status !== 200) return
      const replaced = learner.jar
      learner.jar = fresh
      await send('signOut', pick(instances), 'POST', '/api/auth/sign-out', { jar: replaced, body: {}, check: (json) => json?.success === true })
    } finally {
      learner.signingIn = false
    }
  },
  me(instance) {
    const learner = pick(learners)
    return send('me', instance, 'GET', '/api/me', { jar: learner.jar, check: ownSession(learner) })
  },
  getSession(instance) {
    const learner = pick(learners)
    return send('getSession', instance, 'GET', '/api/auth/get-session', { jar: learner.jar, check: ownSession(learner) })
  },
  list(instance) {
    const query = pick(['', '', '', '?sort=-code', '?sort=name&q=b', '?page=1&pageSize=3', '?q=intermediate'])
    return send('list', instance, 'GET', `/api/language-levels${query}`, { check: (json) => Array.isArray(json?.items) })
  },
  level(instance) {
    const { id } = pick(levels)
    return send('level', instance, 'GET', `/api/language-levels/${id}`, { check: (json) => json?.id === id })
  },
  profile(instance) {
    const learner = pick(learners)
    // Positions never change here (no reorder): the target at or above the current level.
    const [current, target] = [pick(levels), pick(levels)].sort((a, b) => a.position - b.position)
    const body = { language: pick(['fr', 'de', 'es', 'ja', null]), currentLevelId: current.id, targetLevelId: target.id }
    return send('profile', instance, 'PUT', '/api/me/profile', { jar: learner.jar, body, check: (json) => json?.targetLevelId === target.id })
  },
  async edit(instance) {
    // A level no other edit of this run has in flight, with the version its last edit answered: a
    // 409 here is not a race of the script's own. After an edit without an answer (timeout, 5xx),
    // which may have been applied, the level is read again first, as the admin page would. When
    // every level has an edit in flight (a slow server), a stale edit goes instead.
    const level = pick(levels.filter((l) => !l.editing))
    if (!level) return actions.staleEdit(instance)
    level.editing = true
    try {
      if (level.versionUnknown) {
        const { status, json } = await send('level', instance, 'GET', `/api/language-levels/${level.id}`, {
          check: (answer) => answer?.id === level.id,
        })
        if (status !== 200) return
        level.version = json.version
        level.versionUnknown = false
      }
      const body = { version: level.version, description: `Soak edit ${Date.now()} on ${instance.name}` }
      const { status, json } = await send('edit', instance, 'PATCH', `/api/language-levels/${level.id}`, {
        jar: admin.jar,
        body,
        check: (answer) => answer?.version === body.version + 1,
      })
      if (status === 200) level.version = json.version
      else level.versionUnknown = true
    } finally {
      level.editing = false
    }
  },
  async staleEdit(instance) {
    // One version behind what the last edit answered (versions only go up, so stale even when the
    // level's version is unknown after a failed edit): another administrator's old form.
    const level = pick(levels.filter((l) => l.version > 1))
    if (!level) return levels.some((l) => !l.editing) ? actions.edit(instance) : undefined // nothing stale yet
    const body = { version: level.version - 1, name: level.name }
    return send('staleEdit', instance, 'PATCH', `/api/language-levels/${level.id}`, { jar: admin.jar, body })
  },
}
