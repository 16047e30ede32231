import { createHash } from 'node:crypto'
import type { EventListener, PublishedEvent } from '@/server/events/bus'

/** A JSON answer as sent, and its entity tag. */
export interface CachedAnswer {
  body: string
  etag: string
}

/** Different reads (pages, sorts, searches, levels) kept at most; the oldest goes first. */
const MAX_ENTRIES = 1000

function toAnswer(value: unknown): CachedAnswer {
  const body = JSON.stringify(value)
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` }
}

/**
 * The public reads of levels, kept in memory until a level changes on any instance (a `levels`
 * event). Correctness first: a read that started before a change is never kept after it (the
 * generation moved on), and nothing is kept while the events cannot be heard (the listening
 * connection is lost), so that no instance answers from a stale copy for longer than an event
 * takes to arrive. Reads of one key at one generation share one query.
 */
export class LevelReadCache implements EventListener {
  readonly #entries = new Map<string, Promise<CachedAnswer>>()
  /**
   * Answers the app sent in full (200) for a request line and Host, which the HTTP server may send
   * again as they are, without the app (`answerAgain`): emptied with the rest.
   */
  readonly #sent = new Map<string, CachedAnswer>()
  #generation = 0
  #hearing = true

  /** Changes with every level change: what was read before another one is not kept. */
  get generation(): number {
    return this.#generation
  }

  /** `answer` was sent for `request` (a key of `sentKey`), read at `generation`. */
  keepSent(request: string, generation: number, answer: CachedAnswer): void {
    if (!this.#hearing || generation !== this.#generation) return
    if (this.#sent.size >= MAX_ENTRIES) this.#sent.delete(this.#sent.keys().next().value as string)
    this.#sent.set(request, answer)
  }

  /** Whether level changes are heard now: nothing read meanwhile may be kept. */
  get hearing(): boolean {
    return this.#hearing
  }

  /** What was sent for `request` since the last change, if anything. */
  sent(request: string): CachedAnswer | undefined {
    return this.#sent.get(request)
  }

  /** The answer for `key`, from memory or from `load`. */
  read(key: string, load: () => Promise<unknown>): Promise<CachedAnswer> {
    if (!this.#hearing) return load().then(toAnswer)
    const kept = this.#entries.get(key)
    if (kept) return kept
    const generation = this.#generation
    const loading = load().then(toAnswer)
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value as string)
    this.#entries.set(key, loading)
    // A failure is not kept; neither is anything once the generation moved on.
    loading.catch(() => {
      if (generation === this.#generation && this.#entries.get(key) === loading) this.#entries.delete(key)
    })
    return loading
  }

  #clear(): void {
    this.#generation++
    this.#entries.clear()
    this.#sent.clear()
  }

  /**
   * A change committed by this instance: emptied before its answer is sent, so that the writer's
   * next read is fresh here without waiting for its own event to come back.
   */
  changed(): void {
    this.#clear()
  }

  event(event: PublishedEvent): void {
    if (event.type === 'levels') this.#clear()
  }

  lost(): void {
    this.#hearing = false
    this.#clear()
  }

  resumed(): void {
    this.#clear()
    this.#hearing = true
  }
}

/** The key of a request for `keepSent`/`sent`: its Host and its target (path and query) as sent. */
export const sentKey = (host: string | undefined, target: string) => `${host ?? ''} ${target}`
