import { max, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { AccountNotice, AuditNotice, CanDoNotice, LevelsNotice, PracticeNotice, WordsNotice } from '@/shared/live'
import type { Role } from '@/shared/roles'
import type { Database, Db } from '@/server/db/client'
import { liveEvent } from '@/server/db/schema'

/**
 * Events between the instances of the app, through PostgreSQL's LISTEN/NOTIFY (PGlite's in one
 * process): a NOTIFY sent in a transaction reaches the listeners only when that transaction
 * commits, and never when it rolls back — an event never announces a change that did not happen
 * (docs/decisions/0013-live-updates.md). Each event is also kept in `live_event` for a while, so
 * that a client that reconnects, to any instance, gets what it missed.
 */
const EVENTS_CHANNEL = 'lingua_events'

/**
 * Taken by every transaction that publishes, and held until it commits: the ids of the events are
 * then in commit order, the order in which every listener hears them, and a client that has seen
 * id n has seen every event before it. Any 64-bit key would do: "lingua" in ASCII, then 3 (see
 * ACCESS_LOCK_KEY in auth/access.ts).
 */
const EVENTS_LOCK_KEY = 0x6c696e6775610003n

export type LiveEvent =
  | { type: 'levels'; data: LevelsNotice }
  | { type: 'can-do'; data: CanDoNotice }
  | { type: 'audit'; data: AuditNotice }
  | { type: 'account'; userId: string; data: AccountChange }
  | { type: 'words'; data: WordsNotice }
  | { type: 'practice'; userId: string; data: PracticeNotice }

/**
 * What the instances are told about an account; the client hears only the reason. `sessionId`:
 * the session that ended (reason `session`); `role` and `disabled`: the account's access after
 * the change (reason `access`; a deleted account counts as disabled).
 */
type AccountChange = AccountNotice & { sessionId?: string; role?: Role; disabled?: boolean }

/** An event as every instance hears it, with its place in the order. */
export type PublishedEvent = LiveEvent & { id: number }

/**
 * Sends `event` to every instance when the transaction `db` commits (at once when `db` is not one).
 * The last statement of a transaction that publishes: the lock it takes is held until the commit,
 * and a lock taken after it could wait on a transaction waiting for it. `durable: false`, for an
 * event published on its own (`db` not a transaction) about a change already committed: its
 * commit does not wait for the disk (`synchronous_commit` off for it alone), so the lock that
 * orders every event is held for no disk write. A crash may lose the latest such events, never one
 * before another kept (the log is written in order); the instances then hear nothing for a while
 * and their clients read everything again.
 */
export async function publishEvent(db: Db, event: LiveEvent, { durable = true }: { durable?: boolean } = {}): Promise<void> {
  const userId = event.type === 'account' || event.type === 'practice' ? event.userId : null
  // One statement: the lock is taken before the row's id is drawn (the insert reads its one row
  // from `locked`), and outside a transaction the lock lasts only this statement's own commit —
  // no round trip to the app while it is held.
  await db.execute(sql`
    with ${durable ? sql`` : sql`lazy as (select set_config('synchronous_commit', 'off', true)),`}
    locked as (select pg_advisory_xact_lock(${EVENTS_LOCK_KEY.toString()}) ${durable ? sql`` : sql`from lazy`}),
    saved as (
      insert into ${liveEvent} (type, user_id, data)
      select ${event.type}, ${userId}, ${JSON.stringify(event.data)}::jsonb from locked
      returning id, type, user_id, data)
    select pg_notify(${EVENTS_CHANNEL}, json_build_object('id', id, 'type', type, 'userId', user_id, 'data', data)::text)
    from saved`)
}

/** The event in a row of `live_event` or a notification; undefined when it is not one of ours. */
export function toPublishedEvent(row: { id: unknown; type: unknown; userId: unknown; data: unknown }): PublishedEvent | undefined {
  const { id, type, userId, data } = row
  const eventId = Number(id)
  if (!Number.isSafeInteger(eventId) || typeof data !== 'object' || data === null) return undefined
  if (type === 'levels') return { id: eventId, type, data: data as LevelsNotice }
  if (type === 'can-do') return { id: eventId, type, data: data as CanDoNotice }
  if (type === 'audit') return { id: eventId, type, data: data as AuditNotice }
  if (type === 'account' && typeof userId === 'string') return { id: eventId, type, userId, data: data as AccountChange }
  if (type === 'words') return { id: eventId, type, data: data as WordsNotice }
  if (type === 'practice' && typeof userId === 'string') return { id: eventId, type, userId, data: data as PracticeNotice }
  return undefined
}

function parseEvent(payload: string): PublishedEvent | undefined {
  try {
    return toPublishedEvent(JSON.parse(payload) as { id: unknown; type: unknown; userId: unknown; data: unknown })
  } catch {
    return undefined
  }
}

/** What an instance does with the events of every instance. */
export interface EventListener {
  event(event: PublishedEvent): void
  /** The events cannot be heard for now (the listening connection is silent or lost). */
  lost(): void
  /** They are heard again; `missed`: those sent meanwhile were lost (a new connection). */
  resumed(missed: boolean): void
}

/**
 * The events of every instance, told to the listeners of this one (the live stream, the caches,
 * the session revocations), in commit order.
 */
export class InstanceEvents implements EventListener {
  readonly #listeners = new Set<EventListener>()
  /** The id of the last event heard (where a new stream starts). */
  lastId = 0

  add(listener: EventListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  event(event: PublishedEvent): void {
    this.lastId = Math.max(this.lastId, event.id)
    for (const listener of this.#listeners) listener.event(event)
  }

  lost(): void {
    for (const listener of this.#listeners) listener.lost()
  }

  resumed(missed: boolean): void {
    for (const listener of this.#listeners) listener.resumed(missed)
  }
}

/**
 * Tells `listener` every event of any instance. Resolves to a function that stops listening.
 */
export async function subscribeEvents(database: Database, logger: Logger, listener: EventListener): Promise<() => Promise<void>> {
  return database.listen(EVENTS_CHANNEL, {
    message: (payload) => {
      const event = parseEvent(payload)
      if (event) listener.event(event)
      else logger.warn({ channel: EVENTS_CHANNEL }, 'unknown event ignored')
    },
    lost: () => listener.lost(),
    resumed: (missed) => listener.resumed(missed),
  })
}

/** The id of the newest event kept (0 when none): where this instance's streams start. */
export async function latestEventId(db: Db): Promise<number> {
  const [row] = await db.select({ newest: max(liveEvent.id) }).from(liveEvent)
  return Number(row?.newest ?? 0)
}
