/**
 * A cache that keeps the `capacity` values used last and drops the least recently used one: for
 * values made from strings that come from outside (a time zone a client sends), so that a process
 * does not grow by one value per distinct string it has ever seen.
 */
export class LruCache<K, V> {
  // A Map iterates in insertion order: the first key is the one used least recently.
  readonly #entries = new Map<K, V>()

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#entries.size
  }

  /** The value kept for `key`, or the one `make` makes (kept, unless it throws). */
  get(key: K, make: (key: K) => V): V {
    if (this.#entries.has(key)) {
      const value = this.#entries.get(key) as V
      this.#entries.delete(key)
      this.#entries.set(key, value)
      return value
    }
    const value = make(key)
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value as K)
    this.#entries.set(key, value)
    return value
  }
}
