import type { GradeResult } from '@/shared/practice'
import { ApiRequestError, NetworkError } from '@/client/lib/http-error'
import type { GradeToSend } from './api/grades'

/**
 * The grades on their way to the server (docs/decisions/0024-practice-page.md): each answer is
 * written to the outbox first (IndexedDB, so that it survives a reload), then sent in the order
 * given, one at a time. A failure that may pass (no network, the server down or busy) stops the
 * round and leaves the rest for later; an answer the server refuses (the card was graded in
 * another tab: 409; the word deleted: 404) is dropped. The client-made id makes a resend (two tabs
 * sending the same outbox, a reply lost on the way) count once.
 */

export interface OutboxStore {
  /** The answers waiting, oldest first. */
  read(): Promise<GradeToSend[]>
  add(entry: GradeToSend): Promise<void>
  /** Takes one out; whether it was there. */
  remove(clientId: string): Promise<boolean>
}

/** What to do with an answer whose sending failed: try again later, or drop it. */
export function afterFailure(error: unknown): 'later' | 'drop' {
  if (error instanceof NetworkError) return 'later'
  if (error instanceof ApiRequestError) {
    // 401: the session ended (a sign-in brings it back); 429 and 5xx pass.
    return error.status === 401 || error.status === 429 || error.status >= 500 ? 'later' : 'drop'
  }
  return 'later'
}

export interface ReplayListener {
  sent?: (entry: GradeToSend, result: GradeResult) => void
  dropped?: (entry: GradeToSend, error: unknown) => void
}

/** Sends what the store holds, in order, until it is empty (true) or a failure says later (false). */
export async function replay(
  store: OutboxStore,
  send: (entry: GradeToSend) => Promise<GradeResult>,
  listener: ReplayListener = {},
): Promise<boolean> {
  for (;;) {
    const [first] = await store.read()
    if (!first) return true
    try {
      const result = await send(first)
      await store.remove(first.clientId)
      listener.sent?.(first, result)
    } catch (error) {
      if (afterFailure(error) === 'later') return false
      await store.remove(first.clientId)
      listener.dropped?.(first, error)
    }
  }
}

/** An outbox kept in memory: where IndexedDB cannot be opened (and in tests). */
export function memoryStore(): OutboxStore {
  let entries: GradeToSend[] = []
  return {
    read: () => Promise.resolve([...entries]),
    add: (entry) => {
      entries = [...entries, entry]
      return Promise.resolve()
    },
    remove: (clientId) => {
      const before = entries.length
      entries = entries.filter((entry) => entry.clientId !== clientId)
      return Promise.resolve(entries.length < before)
    },
  }
}

/**
 * One tab's sender: one round at a time (an answer added during a round is sent by it or by the
 * round that follows), and the latest answer sent known, so that an undo can wait for it.
 */
export class GradeOutbox {
  private round: Promise<boolean> | null = null
  private again = false
  /** The latest answer sent (or on its way), and whether the server took it. */
  private latest: { clientId: string; taken: Promise<boolean> } | null = null

  constructor(
    readonly store: OutboxStore,
    private readonly send: (entry: GradeToSend) => Promise<GradeResult>,
    private readonly listener: ReplayListener & { settled?: (empty: boolean) => void } = {},
    /** Whether sending is worth trying (the browser says it is online). */
    private readonly online: () => boolean = () => true,
  ) {}

  async add(entry: GradeToSend): Promise<void> {
    await this.store.add(entry)
    void this.flush()
  }

  /** Sends what waits; answers whether the outbox is empty afterwards. */
  flush(): Promise<boolean> {
    if (this.round) {
      this.again = true
      return this.round
    }
    const run = async (): Promise<boolean> => {
      let empty: boolean
      do {
        this.again = false
        empty = this.online()
          ? await replay(this.store, (entry) => this.tracked(entry), this.listener)
          : (await this.store.read()).length === 0
      } while (empty && this.again)
      return empty
    }
    this.round = run().finally(() => {
      this.round = null
    })
    void this.round.then((empty) => this.listener.settled?.(empty))
    return this.round
  }

  private tracked(entry: GradeToSend): Promise<GradeResult> {
    const done = this.send(entry)
    this.latest = { clientId: entry.clientId, taken: done.then(() => true, () => false) }
    return done
  }

  /**
   * Takes the newest answer back: `withdrawn` when the server never took it, `sent` when it did
   * (waited for while on its way), and the server must undo it. Asked once it is out of the store:
   * a round that read the answer just before still sends it (the store's read, begun first, ends
   * first), and an answer the server refused counts as never sent.
   */
  async withdraw(clientId: string): Promise<'withdrawn' | 'sent'> {
    const removed = await this.store.remove(clientId)
    if (this.latest?.clientId === clientId) return (await this.latest.taken) ? 'sent' : 'withdrawn'
    return removed ? 'withdrawn' : 'sent'
  }
}
