import type { HttpBindings } from '@hono/node-server'
import { type Context, Hono } from 'hono'
import { roleOf } from '@/shared/roles'
import { LIVE_REPLAY_MAX, LIVE_REPLAY_WINDOW_MS, type LiveHub, type StreamOwner } from '@/server/events/hub'
import type { StreamSlots } from '@/server/events/stream-slots'
import type { AppEnv } from '@/server/http/context'
import { ApiError } from '@/server/http/errors'
import type { Auth } from '@/server/auth/auth'
import { storeUnavailable } from '@/server/auth/session'
import { describe, file } from '@/server/openapi/describe'

const describeEvents = describe({
  operationId: 'streamEvents',
  summary: 'Live events (Server-Sent Events)',
  description: `A stream of what changes, as it happens, to every instance: \`levels\` (a level was created, changed, deleted or reordered) for everyone; \`account\` (your role, access, profile or one of your sessions changed) for the signed-in person; \`audit\` (a row of the audit log) for administrators. \`session-ended\` says this stream's session ended; the stream closes after it. Every event has an \`id\`: a client that reconnects with \`Last-Event-ID\` is sent what it missed (kept ${LIVE_REPLAY_WINDOW_MS / 60_000} minutes, at most ${LIVE_REPLAY_MAX} events), or \`reset\` when that cannot be done (read everything again). \`ready\` follows; a comment line every 15 s keeps the connection open. 429 when the client already holds as many streams as it may (per session, or per address for a visitor, on all instances together); 503 when the instance serves too many streams or is shutting down.`,
  tags: ['Live'],
  access: 'public',
  headers: [{ name: 'Last-Event-ID', description: 'The id of the last event the client received.' }],
  responses: {
    200: file(['text/event-stream'], 'The event stream (never ends by itself).'),
  },
  errors: [429, 503],
})

/** `Last-Event-ID` as an id we could have sent; 'invalid' when present but not one. */
function lastEventIdOf(header: string | undefined): number | 'invalid' | undefined {
  if (header === undefined || header === '') return undefined
  return /^\d{1,15}$/.test(header) ? Number(header) : 'invalid'
}

/** Seconds a client refused for holding too many streams is asked to wait. */
const STREAMS_RETRY_AFTER_SECONDS = 30

/** `/api/events`: the live stream of this instance's hub. */
export function liveRoutes(
  auth: Auth,
  hub: LiveHub,
  limits: {
    slots: StreamSlots
    /** Streams a session may hold open; a visitor's address. */
    perSession: number
    perAddress: number
    clientAddress: (c: Context) => string
  },
) {
  return new Hono<AppEnv>().get('/', describeEvents, async (c) => {
    // From the store, not the cache cookie: a stream outlives any cached copy of the session.
    const { headers: answerHeaders, response: session } = await auth.api
      .getSession({ headers: c.req.raw.headers, query: { disableCookieCache: true }, returnHeaders: true })
      .catch((error: unknown) => {
        throw storeUnavailable(error)
      })
    const owner: StreamOwner | null = session
      ? {
          userId: session.user.id,
          role: roleOf(session.user.role),
          sessionId: session.session.id,
          expiresAt: new Date(session.session.expiresAt).getTime(),
        }
      : null
    // A client that leaves sends FIN; the server keeps half-open connections (http/node-server.ts),
    // so without this the stream would end only when a heartbeat fails to be written.
    const gone = new AbortController()
    const { incoming, outgoing } = (c.env ?? {}) as Partial<HttpBindings>
    const leave = () => gone.abort()
    incoming?.socket.once('end', leave)
    outgoing?.once('close', () => {
      incoming?.socket.off('end', leave)
      leave()
    })
    const release = owner
      ? await limits.slots.take(`session:${owner.sessionId}`, limits.perSession)
      : await limits.slots.take(`address:${limits.clientAddress(c)}`, limits.perAddress)
    if (!release) {
      throw new ApiError(
        'rate_limited',
        `Too many live streams are open for this ${owner ? 'session' : 'address'}: close some tabs, or try again later.`,
        undefined,
        { 'Retry-After': String(STREAMS_RETRY_AFTER_SECONDS) },
      )
    }
    const stream = hub.open(owner, lastEventIdOf(c.req.header('last-event-id')), gone.signal, release)
    if (!stream) {
      release()
      throw new ApiError('service_unavailable', 'No stream can be opened here now; try again soon.', undefined, { 'Retry-After': '5' })
    }
    const headers = new Headers({
      'Content-Type': 'text/event-stream; charset=utf-8',
      // nginx: pass each event on as it comes (docs/operations.md).
      'X-Accel-Buffering': 'no',
    })
    for (const cookie of answerHeaders?.getSetCookie() ?? []) headers.append('Set-Cookie', cookie)
    return new Response(stream, { headers })
  })
}
