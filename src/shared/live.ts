import type { AuditAction } from './audit-log'

/**
 * The live stream (`GET /api/events`, Server-Sent Events): what the server pushes to open screens
 * (docs/decisions/0013-live-updates.md). Each event names what changed; the client reads it again.
 */
export const LIVE_EVENTS_PATH = '/api/events'

/** A comment line every this often keeps proxies and the client sure the connection is alive. */
export const LIVE_HEARTBEAT_MS = 15_000

/** A level was created, changed, deleted, or the order changed (`id` null): everyone hears it. */
export interface LevelsNotice {
  action: 'create' | 'update' | 'delete' | 'reorder'
  id: number | null
}

/**
 * A can-do statement was added, changed, deleted (`id`), or a cell was reordered or a file imported
 * (`id` null): everyone hears it. A level's deletion takes its statements without this event: the
 * `levels` event says it.
 */
export interface CanDoNotice {
  action: 'create' | 'update' | 'delete' | 'reorder' | 'import'
  id: number | null
}

/** A row written to the audit log: administrators hear it. */
export interface AuditNotice {
  id: number
  action: AuditAction
  targetType: string
  targetId: string | null
  /** Who did it; null for the command line and automatic grants. */
  actorId: string | null
  actorName: string | null
}

/**
 * Something about the signed-in person's own account changed: its role or access, its profile or
 * picture, or one of its sessions ended. Only they hear it; the client reads the session again.
 */
export interface AccountNotice {
  reason: 'access' | 'profile' | 'session'
}

/** A level's words changed (an administrator's edit or import): everyone hears it. */
export interface WordsNotice {
  action: 'create' | 'update' | 'delete' | 'import'
  levelId: number
  /** The word; null for an import. */
  id: number | null
}

/**
 * The signed-in person's practice changed in another tab or device (a grade, an undo, their
 * settings): only they hear it; the client reads its queue and today's summary again.
 */
export interface PracticeNotice {
  reason: 'review' | 'undo' | 'settings' | 'decks' | 'import' | 'model'
}

/** The events on the wire, by their `event:` name. */
export interface LiveEvents {
  levels: LevelsNotice
  'can-do': CanDoNotice
  audit: AuditNotice
  account: AccountNotice
  words: WordsNotice
  practice: PracticeNotice
  /** The session of this connection ended (signed out, revoked, disabled): the stream closes. */
  'session-ended': Record<string, never>
  /** What was missed cannot be replayed (too old, or an unknown `Last-Event-ID`): read again. */
  reset: Record<string, never>
  /** The stream is open; its id is where a reconnect resumes from. */
  ready: Record<string, never>
}
export type LiveEventName = keyof LiveEvents
