import type { EventListener, PublishedEvent } from './bus'

/**
 * Reads kept in memory until an event says that what they read changed, on any instance (the level
 * lists, the words of a level). Correctness first: a read that started before a change is never
 * kept after it (the generation moved on), and nothing is kept while the events cannot be heard
 * (the listening connection is lost), so that no instance answers from a stale copy for longer
 * than an event takes to arrive. Reads of one key at one generation share one load; at most
 * `maxEntries` keys are kept, the oldest going first.
 */
export class KeptReads<T> implements EventListener {
  readonly #entries = new Map<string, Promise<T>>()
  readonly #changes: (event: PublishedEvent) => boolean
  readonly #maxEntries: number
  #generation = 0
  #hearing = true

  /** `changes`: whether an event changes what is kept (everything kept is then dropped). */
  constructor(changes: (event: PublishedEvent) => boolean, maxEntries = 1000) {
    this.#changes = changes
    this.#maxEntries = maxEntries
  }

  /** Changes with every change: what was read before another one is not kept. */
  get generation(): number {
    return this.#generation
  }

  /** Whether changes are heard now: nothing read meanwhile may be kept. */
  get hearing(): boolean {
    return this.#hearing
  }

  /** What `load` reads for `key`, from memory when it was read since the last change. */
  read(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.#hearing) return load()
    const kept = this.#entries.get(key)
    if (kept) return kept
    const generation = this.#generation
    const loading = load()
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as string)
    this.#entries.set(key, loading)
    // A failure is not kept; neither is anything once the generation moved on.
    loading.catch(() => {
      if (generation === this.#generation && this.#entries.get(key) === loading) this.#entries.delete(key)
    })
    return loading
  }

  /** Drops everything kept. */
  clear(): void {
    this.#generation++
    this.#entries.clear()
  }

  /**
   * A change committed by this instance: dropped before its answer is sent, so that the writer's
   * next read is fresh here without waiting for its own event to come back.
   */
  changed(): void {
    this.clear()
  }

  event(event: PublishedEvent): void {
    if (this.#changes(event)) this.clear()
  }

  lost(): void {
    this.#hearing = false
    this.clear()
  }

  resumed(): void {
    this.clear()
    this.#hearing = true
  }
}
