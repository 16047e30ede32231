import { type ErrorCode, errorCodes, statusOfCode } from '@/shared/errors'
import type { conformanceChecker } from '../openapi-conformance'
import type { TestServer } from '../server'
import { type Answer, type Shot, describeShot, safeMethods, traffic } from './shots'

/** What is wrong with a failure's answer, if anything: the API's one error shape, as JSON. */
export function errorShapeProblem(answer: Answer): string | undefined {
  const type = answer.headers['content-type'] ?? ''
  if (!/^application\/json\b/.test(type)) return `content type ${JSON.stringify(type)}, not JSON`
  let body: unknown
  try {
    body = JSON.parse(answer.body.toString('utf8'))
  } catch {
    return `a body that is not JSON: ${JSON.stringify(answer.body.subarray(0, 200).toString())}`
  }
  const text = JSON.stringify(body).slice(0, 300)
  if (typeof body !== 'object' || body === null || Object.keys(body).join() !== 'error') return `not { error }: ${text}`
  const { error } = body as { error: Record<string, unknown> }
  if (typeof error !== 'object' || error === null) return `error is not an object: ${text}`
  for (const key of Object.keys(error)) if (!['code', 'message', 'fields'].includes(key)) return `unknown key ${key}: ${text}`
  if (!errorCodes.includes(error.code as ErrorCode)) return `unknown code: ${text}`
  if (typeof error.message !== 'string' || error.message === '') return `no message: ${text}`
  if (statusOfCode[error.code as ErrorCode] !== answer.status) return `code ${String(error.code)} with status ${answer.status}: ${text}`
  if (error.fields !== undefined) {
    const fields = error.fields as Record<string, unknown>
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return `fields is not a map: ${text}`
    for (const messages of Object.values(fields)) {
      if (!Array.isArray(messages) || messages.length === 0 || messages.some((m) => typeof m !== 'string')) {
        return `fields are not lists of messages: ${text}`
      }
    }
  }
  if (answer.headers['cache-control'] !== 'no-store') return `Cache-Control ${String(answer.headers['cache-control'])}, not no-store`
  if (answer.headers['x-content-type-options'] !== 'nosniff' || !answer.headers['content-security-policy']) {
    return 'an answer without the security headers'
  }
  if (answer.status === 429 && !/^\d+$/.test(String(answer.headers['retry-after']))) return '429 without Retry-After'
  return undefined
}

/** Whether the path, as the server resolves dot segments, is the API's (JSON answers only). */
function isApiPath(targetPath: string): boolean {
  try {
    const { pathname } = new URL(targetPath, 'http://localhost')
    return pathname.startsWith('/api/') || pathname === '/api' || pathname === '/config.json'
  } catch {
    return true
  }
}

export interface BatchOptions {
  /** The batch was built to be invalid: writes are refused and nothing is stored. */
  invalid: boolean
  /** 429 is an acceptable answer (the rate-limited server). */
  allow429?: boolean
  /** Extra checks of a successful answer. */
  onSuccess?: (s: Shot, answer: Answer) => string | undefined
}

/** Whether an answer is one the OpenAPI document promises: a problem, or undefined. */
export type Conformance = ReturnType<typeof conformanceChecker>

/**
 * What is wrong with the answer to a shot, if anything: a 5xx, no answer, a 429 where the limits
 * are raised, a write not refused, an answer outside the document or the error shape.
 */
export function answerProblem(s: Shot, answer: Answer | undefined, options: BatchOptions, conformance: Conformance): string | undefined {
  if (!answer) return s.raw?.expect === 'any' ? undefined : 'no answer: the connection closed'
  // Every answer to a documented operation is one the document promises (raw framings are
  // answered by the HTTP server before any operation).
  if (!s.raw) {
    const type = answer.headers['content-type']
    const problem = conformance({
      method: s.method,
      target: s.target,
      status: answer.status,
      contentType: typeof type === 'string' ? type : undefined,
      body: answer.body.toString('utf8'),
    })
    if (problem) return `does not conform to the OpenAPI document: ${problem}`
  }
  // The demo's documented failure on demand, for its error and retry states.
  const simulated = answer.status === 503 && /^\/api\/demo\/server-time\?(?:[^#]*&)?fail=true(?:&|$)/.test(s.target)
  if (answer.status >= 500 && !simulated) return `answered ${answer.status}: ${answer.body.subarray(0, 300).toString()}`
  // The same address drawn twice within a minute is told to wait for its email: no limit to raise.
  const emailWait = answer.status === 429 && answer.body.toString().includes('"code":"email_recently_sent"')
  if (answer.status === 429 && !options.allow429 && !emailWait) return 'answered 429: the rate limits should be raised for this server'
  // A redirect is no success: better-auth refuses an OAuth callback by redirecting to its error
  // page, and redirects its POST form to the GET one. The digest says whether anything changed.
  if (options.invalid && s.refused && !safeMethods.has(s.method) && answer.status < 300) {
    return `was not refused: ${answer.status} ${answer.body.subarray(0, 300).toString()}`
  }
  if (answer.status >= 400 && s.method !== 'HEAD' && isApiPath(s.target)) {
    const problem = errorShapeProblem(answer)
    if (problem) return `answered ${answer.status} with ${problem}`
  }
  if (answer.status < 400) return options.onSuccess?.(s, answer)
  return undefined
}

/**
 * New lines of the server's log since the last call: errors it logged and 5xx it answered, even
 * those no client saw (the connection was gone).
 */
export function logProblems(server: TestServer, cursor: { at: number }): string[] {
  const lines = server.logs.slice(cursor.at)
  cursor.at = server.logs.length
  const problems: string[] = []
  for (const line of lines) {
    // Every line is JSON: a library's own console line (a deprecation warning) escapes the log.
    if (!line.startsWith('{')) {
      problems.push(`a line outside the JSON log: ${line.slice(0, 300)}`)
      continue
    }
    let entry: {
      level?: number
      msg?: string
      component?: string
      requestId?: string
      res?: { status?: number }
      req?: unknown
      err?: { message?: string }
    }
    try {
      entry = JSON.parse(line) as typeof entry
    } catch {
      continue
    }
    const culprit = traffic.sent.get(entry.requestId ?? '')
    const request = culprit ? describeShot(culprit) : `${JSON.stringify(entry.req ?? null)} (${entry.requestId ?? 'no request id'})`
    // Nothing a client sends is the server's error, better-auth's messages included.
    if ((entry.level ?? 0) >= 50) {
      problems.push(`the server logged an error: ${entry.msg ?? ''} ${entry.err?.message?.slice(0, 300) ?? ''}\n    for ${request}`)
    } else if ((entry.res?.status ?? 0) >= 500 && !(culprit && /[?&]fail=true(&|$)/.test(culprit.target))) {
      problems.push(`the server logged a ${entry.res?.status} answer\n    for ${request}`)
    }
  }
  return problems
}
