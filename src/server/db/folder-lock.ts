import { readFileSync, unlinkSync } from 'node:fs'
import { readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import os from 'node:os'

/**
 * One process at a time per embedded database folder. PGlite has no lock of its own: two
 * processes opening one folder both write to it and corrupt it. The first to start writes a lock
 * file naming itself; a later one refuses with a message naming that process.
 *
 * A lock left by a process that died without removing it (`kill -9`, a power cut) must not block
 * the next start, so a lock is stale when
 * - its process is gone, on this host: no process with its id, or one started at another time
 *   (the id was reused) — decided at once;
 * - on another host (a container that has been replaced shares the folder through a volume): its
 *   holder has not touched it for `STALE_AFTER_MS`. A holder touches its lock every
 *   `HEARTBEAT_MS`.
 */
const HEARTBEAT_MS = 10_000
export const STALE_AFTER_MS = 30_000

export interface LockHolder {
  pid: number
  hostname: string
  /** The kernel's start time of the process (Linux), to tell a reused process id. */
  processStart: string | undefined
  startedAt: string
  command: string
}

export class FolderInUseError extends Error {
  constructor(
    readonly folder: string,
    readonly holder: LockHolder,
  ) {
    const where = holder.hostname === os.hostname() ? '' : ` on host ${holder.hostname}`
    super(
      `The embedded database in ${folder} is in use by process ${holder.pid}${where} (${holder.command}, started ${holder.startedAt}). ` +
        'One process at a time may open it: stop that process first, or set DATABASE_URL to a PostgreSQL server to run several processes on one database.',
    )
    this.name = 'FolderInUseError'
  }
}

/** The lock of `folder` as a file beside it. Resolves with its release, or throws FolderInUseError. */
export async function lockFolder(folder: string): Promise<() => void> {
  const file = `${folder}.lock`
  const me: LockHolder = {
    pid: process.pid,
    hostname: os.hostname(),
    processStart: processStartTime(process.pid),
    startedAt: new Date().toISOString(),
    command: process.argv.slice(1).join(' ') || process.argv0,
  }
  const content = JSON.stringify(me)
  await acquire(file, folder, content)

  const heartbeat = setInterval(() => {
    const now = new Date()
    utimes(file, now, now).catch(() => {})
  }, HEARTBEAT_MS)
  heartbeat.unref()
  // A process that exits without closing the database (process.exit on a fatal error) still lets
  // the next one start at once.
  const removeOnExit = () => removeIfOurs(file, content)
  process.once('exit', removeOnExit)

  return () => {
    clearInterval(heartbeat)
    process.removeListener('exit', removeOnExit)
    removeIfOurs(file, content)
  }
}

async function acquire(file: string, folder: string, content: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await writeFile(file, content, { flag: 'wx' })
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const found = await readLock(file)
    if (!found) continue // removed meanwhile: try again
    if (!isStale(found)) throw new FolderInUseError(folder, found.holder)
    // Taken away by a rename: of several processes starting at once, one moves this file. If what
    // was moved is no longer the stale lock (another starter had replaced it in between), it goes
    // back and that starter keeps it.
    const aside = `${file}.${process.pid}.stale`
    try {
      await rename(file, aside)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw error
    }
    const moved = await readLock(aside)
    if (moved && moved.text !== found.text) {
      await rename(aside, file)
      throw new FolderInUseError(folder, moved.holder)
    }
    await rm(aside, { force: true })
  }
  throw new Error(`Could not take the lock ${file}: it keeps changing.`)
}

async function readLock(file: string): Promise<{ text: string; holder: LockHolder; modifiedAt: number } | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)])
    return { text, holder: parseHolder(text), modifiedAt: info.mtimeMs }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** What a lock file says; a file cut short (a crash while writing it) names nobody. */
function parseHolder(text: string): LockHolder {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>
    if (typeof value.pid === 'number' && typeof value.hostname === 'string') {
      return {
        pid: value.pid,
        hostname: value.hostname,
        processStart: typeof value.processStart === 'string' ? value.processStart : undefined,
        startedAt: String(value.startedAt ?? 'at an unknown time'),
        command: String(value.command ?? 'unknown command'),
      }
    }
  } catch {
    // unreadable: below
  }
  return { pid: 0, hostname: '', processStart: undefined, startedAt: 'at an unknown time', command: 'unknown command' }
}

function isStale({ holder, modifiedAt }: { holder: LockHolder; modifiedAt: number }): boolean {
  if (holder.hostname !== os.hostname()) {
    // Not a process of this host (or a file cut short): only its heartbeat tells.
    return Date.now() - modifiedAt > STALE_AFTER_MS
  }
  // This very process cannot hold it yet: a container restarted under the same id (pid 1).
  if (holder.pid === process.pid) return true
  if (!isRunning(holder.pid)) return true
  const start = processStartTime(holder.pid)
  return start !== undefined && holder.processStart !== undefined && start !== holder.processStart
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); undefined off Linux. */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

/** Synchronous: also used from the process's 'exit' event, where nothing asynchronous runs. */
function removeIfOurs(file: string, content: string) {
  try {
    if (readFileSync(file, 'utf8') === content) unlinkSync(file)
  } catch {
    // already gone
  }
}
