import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, afterEach, expect, inject } from 'vitest'
import { conformanceChecker } from './openapi-conformance'
import { stopAllServers } from './server'

/**
 * Runs in every API test file.
 *
 * Every server a file starts is stopped after that file, whether its tests passed or not.
 *
 * Every answer a test receives over `fetch` from a test server (127.0.0.1) to an operation of the
 * OpenAPI document must be one the document promises — a documented status, content type and
 * body schema — or the test fails, naming the answers that did not conform. Answers to paths and
 * methods the document does not list, and raw-socket requests, are not checked here (the error-
 * shape checks of the tests cover them).
 */

afterAll(stopAllServers)

const conforms = conformanceChecker(inject('openapiDocument'))
/**
 * Node's own fetch. The files of a worker share its modules (vitest.config.ts) and this file runs
 * again for each: the check below wraps Node's fetch once, not the previous file's wrapper.
 */
const checkedFetch = Symbol.for('lingua.checkedFetch')
type CheckedFetch = typeof fetch & { [checkedFetch]?: typeof fetch }
const fetchOfNode = (globalThis.fetch as CheckedFetch)[checkedFetch] ?? globalThis.fetch
/** Checks of the current test's answers, and what they found. */
let checks: Promise<void>[] = []
let problems: string[] = []
/** How long a body may take to arrive before its check gives up (a stream a test left open). */
const BODY_WAIT_MS = 5_000

async function check(method: string, target: string, response: Response): Promise<void> {
  const contentType = response.headers.get('content-type')
  let body: string
  try {
    const waiting = new AbortController()
    const late = sleep(BODY_WAIT_MS, undefined, { signal: waiting.signal }).catch(() => undefined)
    const read = await Promise.race([response.text(), late]).finally(() => waiting.abort())
    if (read === undefined) return
    body = read
  } catch {
    return // The test aborted the request or the server cut the connection: no whole answer.
  }
  const problem = conforms({ method, target, status: response.status, contentType, body })
  if (problem) problems.push(`${method} ${target} → ${problem}`)
}

const fetchChecked: CheckedFetch = async (input, init) => {
  const response = await fetchOfNode(input, init)
  const request = input instanceof Request ? input : undefined
  const url = new URL(request?.url ?? (input instanceof URL ? input.href : (input as string)))
  // An event stream never ends: a clone of its body, never read, would keep the connection open
  // after the test cancels the stream (and it is not checked anyway).
  const stream = response.headers.get('content-type')?.startsWith('text/event-stream')
  if (!stream && url.hostname === '127.0.0.1' && url.pathname.startsWith('/api/')) {
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase()
    checks.push(check(method, `${url.pathname}${url.search}`, response.clone()))
  }
  return response
}
fetchChecked[checkedFetch] = fetchOfNode
globalThis.fetch = fetchChecked

afterEach(async () => {
  await Promise.all(checks)
  const found = problems
  checks = []
  problems = []
  expect(found, 'answers outside the OpenAPI document').toEqual([])
})
