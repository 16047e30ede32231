import { asc, eq, gt, max, min, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import { LIVE_HEARTBEAT_MS, type LiveEventName } from '@/shared/live'
import { type Role, roleOf } from '@/shared/roles'
import type { Db } from '@/server/db/client'
import { liveEvent, user } from '@/server/db/schema'
import { type EventListener, type InstanceEvents, type PublishedEvent, toPublishedEvent } from './bus'

/** A reconnecting client is sent at most this many missed events; beyond, it reads again. */
export const LIVE_REPLAY_MAX = 1000
/** Events are kept this long for reconnecting clients (docs/decisions/0013-live-updates.md). */
export const LIVE_REPLAY_WINDOW_MS = 10 * 60 * 1000
/** How often the events older than the window are forgotten. */
const PRUNE_EVERY_MS = 60_000
/** Open streams per instance; beyond, 503 (each holds a socket and a few kilobytes). */
const LIVE_MAX_CONNECTIONS = 20_000
/** A client that reads nothing while this much waits for it is dropped (it reconnects later). */
const MAX_UNREAD_BYTES = 1024 * 1024

/** Who a stream belongs to: a visitor, or a signed-in person's session. */
export interface StreamOwner {
  userId: string
  role: Role
  sessionId: string
  /** When the session expires (ms since the epoch): the stream ends then. */
  expiresAt: number
}

interface Connection {
  owner: StreamOwner | null
  controller: ReadableStreamDefaultController<Uint8Array>
  /** Events heard while the missed ones are read from the database; null once live. */
  pending: PublishedEvent[] | null
  /** The id of the last event sent: a pending one at or below it was replayed already. */
  lastId: number
  closed: boolean
  /** Gives the client's slot back (stream-slots.ts). */
  release: () => void
}

const encoder = new TextEncoder()
const heartbeat = encoder.encode(': \n\n')

function frame(name: LiveEventName, data: object, id?: number): Uint8Array {
  return encoder.encode(`${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
}

/**
 * The open event streams of this instance, and who hears what. Authorization is decided for each
 * event and each stream: everyone hears level and word changes, a signed-in person the events of
 * their own account and practice, administrators the audit log. A stream whose session ends is told so and closed.
 */
export class LiveHub implements EventListener {
  readonly #connections = new Set<Connection>()
  readonly #db: Db
  readonly #events: InstanceEvents
  readonly #logger: Logger
  readonly #timer: NodeJS.Timeout
  readonly #pruner: NodeJS.Timeout
  /** Shutting down: no new stream (503, the client tries again, elsewhere). */
  #closing = false

  constructor(deps: { db: Db; events: InstanceEvents; logger: Logger }) {
    this.#db = deps.db
    this.#events = deps.events
    this.#logger = deps.logger
    this.#timer = setInterval(() => this.#beat(), LIVE_HEARTBEAT_MS)
    this.#timer.unref()
    this.#pruner = setInterval(() => void this.#prune(), PRUNE_EVERY_MS)
    this.#pruner.unref()
  }

  /**
   * Forgets the events older than the replay window, oldest first (ids in commit order), always
   * keeping the newest: a client that saw it resumes without a reset. Every instance does it; the
   * same statement twice is harmless.
   */
  async #prune(): Promise<void> {
    const cutoff = new Date(Date.now() - LIVE_REPLAY_WINDOW_MS)
    try {
      await this.#db.execute(sql`
        delete from ${liveEvent} where id < least(
          (select max(id) from ${liveEvent}),
          coalesce((select max(id) + 1 from ${liveEvent} where created_at < ${cutoff}), 0))`)
    } catch (error) {
      this.#logger.warn({ err: error }, 'old live events could not be pruned')
    }
  }

  /**
   * A new stream. `lastEventId`: what the client saw last (`Last-Event-ID`): the events after it
   * are sent first; `invalid` when the header was there but is not an id we could have sent.
   */
  open(
    owner: StreamOwner | null,
    lastEventId: number | 'invalid' | undefined,
    /** Aborted when the client has gone (the stream ends at once, not at the next heartbeat). */
    gone: AbortSignal,
    /** Called once when the stream ends, however it ends. */
    release: () => void = () => {},
  ): ReadableStream<Uint8Array> | undefined {
    if (this.#closing || this.#connections.size >= LIVE_MAX_CONNECTIONS) return undefined
    let connection: Connection | undefined
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        const opened: Connection = { owner, controller, pending: [], lastId: this.#events.lastId, closed: false, release }
        connection = opened
        this.#connections.add(opened)
        gone.addEventListener('abort', () => this.#close(opened), { once: true })
        void this.#start(opened, lastEventId)
      },
      cancel: () => {
        if (connection) this.#forget(connection)
      },
    })
  }

  /** Sends what was missed (or `reset`), then `ready`, then goes live. */
  async #start(connection: Connection, lastEventId: number | 'invalid' | undefined): Promise<void> {
    let replay: PublishedEvent[] | 'reset' = []
    if (lastEventId === 'invalid') replay = 'reset'
    else if (lastEventId !== undefined) {
      try {
        replay = await this.#missedSince(lastEventId)
      } catch (error) {
        this.#logger.warn({ err: error }, 'missed events could not be read: the client reads again')
        replay = 'reset'
      }
    }
    // Authorized by the role the person has now, read after the events to replay were: never the
    // role they had when an event happened (a replayed grant does not open the audit log to
    // someone demoted since), nor a session store's copy of it (Redis keeps the role a session
    // was stored with). The events heard from here on change it in order (#deliver).
    const account = connection.owner ? await this.#refreshRole(connection.owner) : 'current'
    if (account !== 'current') {
      // Deleted or disabled since the session was read: its end. Unreadable: the client reconnects.
      if (account === 'gone') this.#end(connection)
      else this.#close(connection)
      return
    }
    if (connection.closed) return
    if (replay === 'reset') this.#write(connection, frame('reset', {}))
    else {
      if (typeof lastEventId === 'number') connection.lastId = lastEventId
      for (const event of replay) this.#deliver(connection, event, true)
    }
    this.#write(connection, frame('ready', {}, connection.lastId))
    const pending = connection.pending ?? []
    connection.pending = null
    for (const event of pending) if (event.id > connection.lastId) this.#deliver(connection, event)
  }

  /** Reads the owner's current role: 'gone' when the account is deleted or disabled. */
  async #refreshRole(owner: StreamOwner): Promise<'current' | 'gone' | 'unknown'> {
    try {
      const [row] = await this.#db.select({ role: user.role, banned: user.banned }).from(user).where(eq(user.id, owner.userId))
      if (!row || row.banned === true) return 'gone'
      owner.role = roleOf(row.role)
      return 'current'
    } catch (error) {
      this.#logger.warn({ err: error }, 'the role of a stream could not be read: it closes, the client reconnects')
      return 'unknown'
    }
  }

  /** The events after `lastId`, or 'reset' when they are not all kept (or `lastId` never was). */
  async #missedSince(lastId: number): Promise<PublishedEvent[] | 'reset'> {
    const [range] = await this.#db.select({ oldest: min(liveEvent.id), newest: max(liveEvent.id) }).from(liveEvent)
    const oldest = Number(range?.oldest ?? 1)
    const newest = Number(range?.newest ?? 0)
    // Ids are in commit order and pruned oldest first: when the one after `lastId` may be gone,
    // or `lastId` is ahead of every event, what is missing cannot be told.
    if (lastId < oldest - 1 || lastId > Math.max(newest, this.#events.lastId)) return 'reset'
    const rows = await this.#db
      .select()
      .from(liveEvent)
      .where(gt(liveEvent.id, lastId))
      .orderBy(asc(liveEvent.id))
      .limit(LIVE_REPLAY_MAX + 1)
    if (rows.length > LIVE_REPLAY_MAX) return 'reset'
    return rows.flatMap((row) => toPublishedEvent(row) ?? [])
  }

  event(event: PublishedEvent): void {
    for (const connection of this.#connections) {
      if (connection.pending) connection.pending.push(event)
      // Read by the replay before its notification arrived: sent already.
      else if (event.id > connection.lastId) this.#deliver(connection, event)
    }
  }

  /** Events may be missed from now on: every client is told to read again once they flow. */
  lost(): void {}

  resumed(missed: boolean): void {
    if (!missed) return
    for (const connection of this.#connections) this.#write(connection, frame('reset', {}))
  }

  /**
   * Sends `event` if this stream may hear it; ends the stream when its session ended. A `replayed`
   * event happened before the stream's session and role were read (#start): it ends nothing and
   * changes no role.
   */
  #deliver(connection: Connection, event: PublishedEvent, replayed = false): void {
    connection.lastId = Math.max(connection.lastId, event.id)
    const { owner } = connection
    switch (event.type) {
      case 'levels':
        this.#write(connection, frame('levels', event.data, event.id))
        return
      case 'can-do':
        this.#write(connection, frame('can-do', event.data, event.id))
        return
      case 'words':
        this.#write(connection, frame('words', event.data, event.id))
        return
      // A person's practice is theirs alone: only the streams of their own sessions hear it.
      case 'practice':
        if (owner?.userId === event.userId) this.#write(connection, frame('practice', event.data, event.id))
        return
      case 'audit':
        if (owner?.role === 'admin') this.#write(connection, frame('audit', event.data, event.id))
        return
      case 'account': {
        if (owner?.userId !== event.userId) return
        const { reason, sessionId, role, disabled } = event.data
        if (!replayed && ((reason === 'session' && sessionId === owner.sessionId) || disabled === true)) {
          this.#end(connection)
          return
        }
        if (role && !replayed) owner.role = role
        this.#write(connection, frame('account', { reason }, event.id))
        return
      }
    }
  }

  /** Tells the client its session ended, and closes the stream. */
  #end(connection: Connection): void {
    this.#write(connection, frame('session-ended', {}))
    this.#close(connection)
  }

  #write(connection: Connection, chunk: Uint8Array): void {
    if (connection.closed) return
    const { controller } = connection
    if ((controller.desiredSize ?? 0) < -MAX_UNREAD_BYTES) {
      this.#close(connection)
      return
    }
    controller.enqueue(chunk)
  }

  #close(connection: Connection): void {
    if (connection.closed) return
    this.#forget(connection)
    connection.controller.close()
  }

  #forget(connection: Connection): void {
    if (!connection.closed) connection.release()
    connection.closed = true
    this.#connections.delete(connection)
  }

  #beat(): void {
    const now = Date.now()
    for (const connection of this.#connections) {
      if (connection.owner && connection.owner.expiresAt <= now) this.#end(connection)
      else if (!connection.pending) this.#write(connection, heartbeat)
    }
  }

  /** Ends every stream and opens no more (shutdown): the clients reconnect, to another instance. */
  closeAll(): void {
    this.#closing = true
    clearInterval(this.#timer)
    clearInterval(this.#pruner)
    for (const connection of this.#connections) this.#close(connection)
  }
}
