import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'

/**
 * The client's address: the socket's, or behind a trusted proxy (TRUST_PROXY) the last
 * X-Forwarded-For entry — the one that proxy added. Entries before it come from the client, which
 * may write anything.
 */
export function clientAddressOf(trustProxy: boolean): (c: Context) => string {
  return (c) => {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim()
    if (trustProxy && forwarded) return forwarded
    return getConnInfo(c).remote.address ?? 'unknown'
  }
}
