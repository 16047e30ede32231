// The traffic: the kinds of request with their shares and counters, one request sent and recorded,
// and the action of each kind (what a learner's or the administrator's page would send).
import { cookieString, responseCookies } from '../lib.mjs'
import { password, pick, random, timeoutMs } from './options.mjs'

// --- Figures --------------------------------------------------------------------------------------

/**
 * The kinds of request, with their share of the scheduled rate and the statuses that are right.
 * A sign-out is not scheduled: it follows each sign-in (the session it replaces), as a browser's
 * user signs out before signing in again, so that sessions do not pile up on a few accounts.
 *
 * The learner's day (learner.mjs) is about half the weight: practice (the queue, grades, undo,
 * settings), the self-assessment's answers and, now and then, an import. Its kinds are `strict`: a
 * 4xx they do not expect is a failure (the script holds each learner's practice one write at a
 * time, so a 409 or 400 there is the server's), except a 429 and a 401 for cookies that a sign-in
 * replaced while the request was under way. Weight 0: sent only as part of another kind.
 */
export const kinds = {
  signIn: { label: 'POST /api/auth/sign-in/email', weight: 2, expect: [200] },
  signOut: { label: 'POST /api/auth/sign-out (after sign-in)', weight: 0, expect: [200] },
  me: { label: 'GET /api/me', weight: 11, expect: [200] },
  getSession: { label: 'GET /api/auth/get-session', weight: 11, expect: [200] },
  list: { label: 'GET /api/language-levels', weight: 10, expect: [200] },
  level: { label: 'GET /api/language-levels/:id', weight: 6, expect: [200] },
  profile: { label: 'PUT /api/me/profile', weight: 6, expect: [200] },
  edit: { label: 'PATCH /api/language-levels/:id', weight: 3, expect: [200] },
  staleEdit: { label: 'PATCH …/:id, stale version (409)', weight: 1, expect: [409] },
  queue: { label: 'GET /api/me/practice/queue', weight: 16, expect: [200], strict: true },
  grade: { label: 'POST /api/me/practice/reviews', weight: 16, expect: [201], strict: true },
  offlineGrade: { label: 'POST …/reviews, reviewedAt minutes ago', weight: 4, expect: [201], strict: true },
  gradeAgain: { label: 'POST …/reviews, same clientId again', weight: 2, expect: [200], strict: true },
  staleGrade: { label: 'POST …/reviews, stale version (409)', weight: 2, expect: [409], strict: true },
  undo: { label: 'POST /api/me/practice/undo', weight: 4, expect: [200], strict: true },
  settings: { label: 'PUT /api/me/practice/settings', weight: 2, expect: [200], strict: true },
  assessmentStart: { label: 'POST /api/me/assessment (start)', weight: 0, expect: [200, 201], strict: true },
  answer: { label: 'POST /api/me/assessment/answers', weight: 4, expect: [200], strict: true },
  // About one of each a minute at --rate=50 (one import every ~30 s): the upload, then polls to its end.
  csvImport: { label: 'CSV import (upload → done)', weight: 1 / 30, expect: [202], strict: true },
  ankiImport: { label: 'Anki import (upload → done)', weight: 1 / 30, expect: [202], strict: true },
  importPoll: { label: 'GET /api/me/imports/:id (poll)', weight: 0, expect: [200], strict: true },
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
 * the jar's cookies), with a timeout, and classifies its answer: `check(json)` says whether an
 * expected status carries the right answer (true; else false, or what is wrong); `learner`: whose
 * cookies (a 401 for cookies a sign-in replaced meanwhile is not the server's fault); `headers`:
 * more headers. A FormData `body` goes as multipart. Resolves to { status, json, failure, ms }
 * (failure: the reason, or undefined).
 */
export async function exchange(kindName, instance, method, pathname, { jar, body, check, learner, headers = {} } = {}) {
  const kind = kinds[kindName]
  const started = performance.now()
  let status = 0
  let json
  let failure
  try {
    const cookie = jar && jar.size > 0 ? cookieString(Object.fromEntries(jar)) : undefined
    const multipart = body instanceof FormData
    const response = await fetch(instance.url + pathname, {
      method,
      headers: {
        Accept: 'application/json',
        ...(method === 'GET' ? {} : { Origin: run.appUrl }),
        ...(body && !multipart ? { 'Content-Type': 'application/json' } : {}),
        ...(cookie ? { Cookie: cookie } : {}),
        ...headers,
      },
      body: multipart ? body : body ? JSON.stringify(body) : undefined,
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
    const expected = kind.expect.includes(status)
    const verdict = expected && check ? check(json) : true
    if (status >= 500) failure = `${status} ${json?.error?.code ?? ''}`.trim()
    else if (verdict !== true) failure ??= `${status}, wrong answer: ${typeof verdict === 'string' ? verdict : summarize(json)}`
    else if (status < 400 && !expected) failure = `${status} instead of ${kind.expect.join('/')}`
    else if (!expected && kind.strict && status !== 429 && !(status === 401 && learner && learner.jar !== jar)) {
      failure = `${status} instead of ${kind.expect.join('/')}: ${json?.error?.code ?? ''} ${json?.error?.message ?? ''}`.trim()
    }
  } catch (error) {
    failure = error?.name === 'TimeoutError' ? `timeout (${timeoutMs / 1000} s)` : `network: ${error?.cause?.code ?? error?.message}`
  }
  return { status, json, failure, ms: performance.now() - started }
}

/** Counts an outcome of `kindName` on `instance` ({ status, failure, ms }; `warmup`: sent during the warm-up). */
export function record(kindName, instance, { status, failure, ms }, warmup) {
  const kind = kinds[kindName]
  kind.requests++
  instance.requests++
  if (failure) {
    increment(kind.failures, failure)
    instance.failures++
    if (warmup) kind.warmupFailures++
  } else if (kind.expect.includes(status)) kind.expected++
  else increment(kind.otherClientErrors, status)
  if (!warmup) {
    kind.latencies.push(ms)
    instance.latencies.push(ms)
  }
}

export const inWarmup = () => performance.now() < run.warmupEndsAt

/** `exchange`, then `record`. Resolves to { status, json } (status 0 on failure). */
export async function send(kindName, instance, method, pathname, options = {}) {
  const warmup = inWarmup()
  const outcome = await exchange(kindName, instance, method, pathname, options)
  record(kindName, instance, outcome, warmup)
  return { status: outcome.failure ? 0 : outcome.status, json: outcome.json }
}

// --- The traffic ---------------------------------------------------------------------------------

/**
 * The learners ({ email, jar, signingIn, and their day's state: see learner.mjs }), the
 * administrator ({ jar }) and the levels, set up before the traffic.
 */
export const learners = []
export const admin = { jar: new Map() }
export const levels = []

/**
 * Takes a learner (one of those `filter` accepts) whose practice no other request of the script is
 * changing: the learner's grades, undos, settings and profile go one at a time, so that the
 * versions and the latest grade the script knows are the server's, and a 409 it did not ask for is
 * the server's. Undefined when every such learner is busy. `releaseLearner` after.
 */
export function takeLearner(filter = () => true) {
  const learner = pick(learners.filter((l) => !l.busy && filter(l)))
  if (learner) {
    learner.busy = true
    learner.writes++
  }
  return learner
}
export function releaseLearner(learner) {
  learner.writes++
  learner.busy = false
}

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
  async profile(instance) {
    // Taken (see takeLearner): a new level or language changes which new words the learner's queue
    // offers, so the cards the script read before are read again before the next grade.
    const learner = takeLearner()
    if (!learner) return actions.me(instance)
    try {
      // Mostly the levels with words (the starter set's first two), in English or any language.
      const byPosition = [...levels].sort((a, b) => a.position - b.position)
      const current = random() < 0.8 ? pick(byPosition.slice(0, 2)) : pick(byPosition)
      const target = pick(byPosition.filter((l) => l.position >= current.position))
      const body = { language: pick(['en', 'en', 'en', null, 'fr']), currentLevelId: current.id, targetLevelId: target.id }
      const { status } = await send('profile', instance, 'PUT', '/api/me/profile', {
        jar: learner.jar,
        body,
        check: (json) => json?.currentLevelId === current.id && json?.targetLevelId === target.id,
      })
      if (status !== 200) learner.unsure = true
      learner.cards = []
      learner.profileChanges++
    } finally {
      releaseLearner(learner)
    }
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
