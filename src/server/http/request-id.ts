import { randomUUID } from 'node:crypto'

const requestIdPattern = /^[\w.:-]{1,128}$/

/** The request's id: the caller's X-Request-Id when it is a plain token, else a new one. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming && requestIdPattern.test(incoming) ? incoming : randomUUID()
}
