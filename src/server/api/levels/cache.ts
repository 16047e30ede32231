import { createHash } from 'node:crypto'
import { KeptReads } from '@/server/events/kept-reads'

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
 * event), as KeptReads keeps them.
 */
export class LevelReadCache extends KeptReads<CachedAnswer> {
  /**
   * Answers the app sent in full (200) for a request line and Host, which the HTTP server may send
   * again as they are, without the app (`answerAgain`): emptied with the rest.
   */
  readonly #sent = new Map<string, CachedAnswer>()

  constructor() {
    super((event) => event.type === 'levels', MAX_ENTRIES)
  }

  /** `answer` was sent for `request` (a key of `sentKey`), read at `generation`. */
  keepSent(request: string, generation: number, answer: CachedAnswer): void {
    if (!this.hearing || generation !== this.generation) return
    if (this.#sent.size >= MAX_ENTRIES) this.#sent.delete(this.#sent.keys().next().value as string)
    this.#sent.set(request, answer)
  }

  /** What was sent for `request` since the last change, if anything. */
  sent(request: string): CachedAnswer | undefined {
    return this.#sent.get(request)
  }

  /** The answer for `key`, from memory or from `load`. */
  override read(key: string, load: () => Promise<unknown>): Promise<CachedAnswer> {
    return super.read(key, () => load().then(toAnswer))
  }

  override clear(): void {
    super.clear()
    this.#sent.clear()
  }
}

/** The key of a request for `keepSent`/`sent`: its Host and its target (path and query) as sent. */
export const sentKey = (host: string | undefined, target: string) => `${host ?? ''} ${target}`
