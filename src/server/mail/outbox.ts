import { randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { MailKind, MailMessage } from './types'

/** One email kept in the outbox: `DATA_DIR/outbox/<time>-<random>.json`. */
export interface OutboxEntry extends MailMessage {
  /** The file name without `.json`; sorting ids sorts by time. */
  id: string
  /** ISO 8601 time the email was handed to the mailer. */
  createdAt: string
  from: string
}

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, 'outbox')
}

/**
 * The file name's time is ISO 8601 with `-` for `:` (Windows forbids colons in names), so names
 * sort by time. A per-process stamp that never repeats keeps that order for emails sent within the
 * same millisecond.
 */
export function createOutboxWriter(dataDir: string, now: () => number = Date.now) {
  const dir = outboxDir(dataDir)
  let lastStamp = -Infinity
  let dirReady: Promise<unknown> | undefined

  return async function writeToOutbox(
    message: MailMessage & { from: string },
  ): Promise<OutboxEntry> {
    const stamp = Math.max(now(), lastStamp + 1)
    lastStamp = stamp
    const createdAt = new Date(stamp).toISOString()
    const id = `${createdAt.replaceAll(':', '-')}-${randomBytes(4).toString('hex')}`
    const entry: OutboxEntry = {
      id,
      createdAt,
      kind: message.kind,
      from: message.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(message.link === undefined ? {} : { link: message.link }),
      ...(message.code === undefined ? {} : { code: message.code }),
      ...(message.headers === undefined ? {} : { headers: message.headers }),
    }
    // The outbox holds working sign-in links and codes: readable by the server's user only.
    dirReady ??= mkdir(dir, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
      dirReady = undefined
      throw error
    })
    await dirReady
    // Written under a dot name and renamed, so a reader never sees half a file.
    const temporary = path.join(dir, `.${id}.tmp`)
    try {
      await writeFile(temporary, `${JSON.stringify(entry, null, 2)}\n`, { mode: 0o600, flag: 'wx' })
      await rename(temporary, path.join(dir, `${id}.json`))
    } catch (error) {
      await rm(temporary, { force: true })
      throw error
    }
    return entry
  }
}

export interface OutboxFilter {
  to?: string
  kind?: MailKind
}

/** The outbox's emails, oldest first; none when the folder does not exist yet. */
export async function readOutbox(
  dataDir: string,
  filter: OutboxFilter = {},
): Promise<OutboxEntry[]> {
  const dir = outboxDir(dataDir)
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  const to = filter.to?.trim().toLowerCase()
  const entries: OutboxEntry[] = []
  for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
    let raw: string
    try {
      raw = await readFile(path.join(dir, name), 'utf8')
    } catch (error) {
      // Someone cleared the outbox while we read it.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw error
    }
    const entry = JSON.parse(raw) as OutboxEntry
    if (to !== undefined && entry.to.trim().toLowerCase() !== to) continue
    if (filter.kind !== undefined && entry.kind !== filter.kind) continue
    entries.push(entry)
  }
  return entries
}
