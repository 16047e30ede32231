import { Transform, type TransformCallback } from 'node:stream'

/**
 * Why a package was refused. `what` is a short English detail for 'damaged' ("the collection is
 * not a database"); the messages the learner reads are made from the code (PRODUCT.md §12).
 */
export class PackageError extends Error {
  constructor(
    readonly code: 'not_a_package' | 'newer_anki' | 'damaged' | 'too_large',
    readonly what?: string,
  ) {
    super(what ? `${code}: ${what}` : code)
    this.name = 'PackageError'
  }
}

export interface ReadLimits {
  /** Sum of the declared AND the real uncompressed sizes of everything read (default 2 GiB). */
  expandedBytes: number
  /**
   * Reviews read at most (default 10 million): they are packed outside V8's heap (AnkiReviews,
   * REVIEW_PACKED_BYTES each), which its limit does not bound.
   */
  reviews: number
}

export const defaultLimits: ReadLimits = { expandedBytes: 2 * 1024 ** 3, reviews: 10_000_000 }

/** What a packed review takes (AnkiReviews: two doubles and six 32-bit integers). */
export const REVIEW_PACKED_BYTES = 40

/** More entries than this in the zip's directory is refused before any is listed. */
export const maxEntries = 1_000_000
/** Parts held whole in memory: `meta` and the media list. */
export const maxMetaBytes = 64 * 1024
export const maxMediaListBytes = 64 * 1024 * 1024

export const damaged = (what: string) => new PackageError('damaged', what)
export const tooLarge = (what?: string) => new PackageError('too_large', what)

/** The expanded bytes a package may still produce, shared by every read of that package. */
export class Budget {
  private spent = 0
  constructor(readonly limit: number) {}

  get remaining(): number {
    return Math.max(0, this.limit - this.spent)
  }

  /** Counts `n` more real bytes; past the limit, too_large. */
  spend(n: number): void {
    this.spent += n
    if (this.spent > this.limit) throw tooLarge('the package expands past its limit')
  }
}

/**
 * Passes bytes through, counting them: past `max` bytes of this stream, too_large; each chunk is
 * also spent from the package's budget (when given). Errors out before passing the chunk on.
 */
export class ByteCounter extends Transform {
  count = 0
  constructor(
    private readonly max: number,
    private readonly budget?: Budget,
  ) {
    super()
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.count += chunk.length
    try {
      if (this.count > this.max) throw tooLarge('a part of the package is larger than allowed')
      this.budget?.spend(chunk.length)
    } catch (error) {
      done(error as Error)
      return
    }
    done(null, chunk)
  }
}
