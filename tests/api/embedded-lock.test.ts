import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { STALE_AFTER_MS } from '@/server/db/folder-lock'
import { Client, freshUser, registerAndVerify } from '../helpers/auth-client'
import { cli } from '../helpers/cli'
import { spawnServer, startServer } from '../helpers/server'

const password = 'correct horse battery'

/** One process at a time per embedded database folder (DATA_DIR/pglite, locked by DATA_DIR/pglite.lock). */
describe('the embedded database is opened by one process at a time', () => {
  const dirs: string[] = []
  const newDataDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lingua-lock-'))
    dirs.push(dir)
    return dir
  }
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
  })

  it('a second server on the same folder refuses at once, naming the process that holds it; the first serves on', async () => {
    const dataDir = await newDataDir()
    const first = await startServer({ env: { DATA_DIR: dataDir } })
    const second = await spawnServer({ env: { DATA_DIR: dataDir } })
    const exit = await second.exited
    expect(exit).toEqual({ code: 1, signal: null })
    const output = second.logs.join('\n')
    expect(output).toContain(`in use by process ${first.process.pid}`)
    expect(output).toContain('stop that process first, or set DATABASE_URL')
    expect((await fetch(`${first.url}/api/ready`)).status).toBe(200)
    await first.stop()
  })

  it('the CLI says the same instead of opening it, and works once the server has stopped', async () => {
    const dataDir = await newDataDir()
    const server = await startServer({ env: { DATA_DIR: dataDir } })
    await registerAndVerify(new Client(server), dataDir, { email: 'first@example.com', password })
    const refused = await cli(['admin', 'list'], { DATA_DIR: dataDir })
    expect(refused.code).toBe(1)
    expect(refused.output).toContain(`The embedded database in ${path.join(dataDir, 'pglite')} is in use by process ${server.process.pid}`)
    expect(refused.output).not.toMatch(/\n\s+at /) // a message, not a stack trace
    await server.stop()
    const listed = await cli(['admin', 'list'], { DATA_DIR: dataDir })
    expect(listed).toMatchObject({ code: 0 })
    expect(listed.output).toMatch(/^first@example\.com\t/m)
  })

  it('a lock left by kill -9 does not block the next start, and the data is there', async () => {
    const dataDir = await newDataDir()
    const killed = await startServer({ env: { DATA_DIR: dataDir } })
    const ada = new Client(killed)
    await registerAndVerify(ada, dataDir, { email: 'ada@example.com', password })
    await killed.stop('SIGKILL')
    const left = JSON.parse(await readFile(path.join(dataDir, 'pglite.lock'), 'utf8')) as { pid: number }
    expect(left.pid).toBe(killed.process.pid)

    const restarted = await startServer({ env: { DATA_DIR: dataDir } })
    const again = new Client(restarted)
    expect((await again.request('POST', '/api/auth/sign-in/email', { email: 'ada@example.com', password })).status).toBe(200)
    expect(await freshUser(again)).toMatchObject({ email: 'ada@example.com' })
    await restarted.stop()
  })

  it('a lock naming a running process that started at another time (its id reused) is stale', async () => {
    const dataDir = await newDataDir()
    // This test's own process runs, but it is not the one that wrote the lock.
    await writeFile(
      path.join(dataDir, 'pglite.lock'),
      JSON.stringify({ pid: process.pid, hostname: os.hostname(), processStart: '1', startedAt: '2026-01-01T00:00:00.000Z', command: 'gone' }),
    )
    const server = await startServer({ env: { DATA_DIR: dataDir } })
    await server.stop()
  })

  it('a lock of another host holds while its holder touches it, and is stale once it stops', async () => {
    const dataDir = await newDataDir()
    const lock = path.join(dataDir, 'pglite.lock')
    await writeFile(
      lock,
      JSON.stringify({ pid: 1, hostname: 'another-host', processStart: '5', startedAt: '2026-01-01T00:00:00.000Z', command: 'node dist/server/main.js' }),
    )
    const refused = await spawnServer({ env: { DATA_DIR: dataDir } })
    expect(await refused.exited).toMatchObject({ code: 1 })
    expect(refused.logs.join('\n')).toContain('in use by process 1 on host another-host')

    const untouched = new Date(Date.now() - STALE_AFTER_MS - 5000)
    await utimes(lock, untouched, untouched)
    const server = await startServer({ env: { DATA_DIR: dataDir } })
    const taken = JSON.parse(await readFile(lock, 'utf8')) as { pid: number }
    expect(taken.pid).toBe(server.process.pid)
    await server.stop()
    // Removed on a clean stop.
    await expect(stat(lock)).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
