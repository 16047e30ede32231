import { type FileHandle, open } from 'node:fs/promises'
import { deserialize, serialize } from 'node:v8'

/**
 * Items kept in a private file while an import is planned, then read back in order, a batch at a
 * time, by the one transaction that writes them: what a package's history makes (every review with
 * the card before and after it) is never held whole in memory. A batch is V8's serialisation (dates
 * stay dates) after its length in 4 bytes; the file is the job's, in its temp folder, removed with it.
 */
export class SpillWriter<T> {
  private handle: FileHandle | undefined
  private batch: T[] = []
  private weight = 0

  /** A batch is written once it holds `maxItems` items or items weighing `maxWeight` together. */
  constructor(
    readonly file: string,
    private readonly maxItems = 100,
    private readonly maxWeight = 1_000,
  ) {}

  /** `weight`: what the item holds (an Anki note's: its cards and their reviews). */
  async add(item: T, weight = 1): Promise<void> {
    this.batch.push(item)
    this.weight += weight
    if (this.batch.length >= this.maxItems || this.weight >= this.maxWeight) await this.flush()
  }

  private async flush(): Promise<void> {
    this.handle ??= await open(this.file, 'w')
    if (this.batch.length === 0) return
    const body = serialize(this.batch)
    const head = Buffer.alloc(4)
    head.writeUInt32LE(body.length)
    await this.handle.writev([head, body])
    this.batch = []
    this.weight = 0
  }

  /** Writes what is left and closes the file, ready for `readSpill`. */
  async finish(): Promise<void> {
    await this.flush()
    await this.close()
  }

  async close(): Promise<void> {
    await this.handle?.close()
    this.handle = undefined
  }
}

/** The batches of a finished spill file, in the order they were added. */
export async function* readSpill<T>(file: string): AsyncGenerator<T[]> {
  const handle = await open(file, 'r')
  try {
    const head = Buffer.alloc(4)
    for (let at = 0; ; ) {
      const { bytesRead } = await handle.read(head, 0, 4, at)
      if (bytesRead < 4) return
      const body = Buffer.alloc(head.readUInt32LE())
      await handle.read(body, 0, body.length, at + 4)
      at += 4 + body.length
      yield deserialize(body) as T[]
    }
  } finally {
    await handle.close()
  }
}
