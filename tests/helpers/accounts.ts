import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Client, registerAndVerify } from './auth-client'
import type { DatabaseTarget } from './database'
import { startAppServer } from './app-server'
import type { ServerOptions, TestServer } from './server'

export const password = 'correct horse battery'

/** A server with an administrator (listed in ADMIN_EMAILS), a learner and a visitor. */
export interface AdminWorld<S extends TestServer = TestServer> {
  server: S
  dataDir: string
  adminEmail: string
  admin: Client
  learner: Client
  visitor: Client
  /** Signs up and confirms one more account; the client is signed in as it. */
  signUp(email: string): Promise<Client>
  stop(): Promise<void>
}

/**
 * The app runs in the test's process (`startAppServer`) unless `start` says otherwise (e.g.
 * `startServer`, for tests of the process itself).
 */
export async function startAdminWorld<S extends TestServer = TestServer>(
  target: DatabaseTarget,
  name: string,
  env: Record<string, string> = {},
  start: (options: ServerOptions) => Promise<S> = startAppServer as (options: ServerOptions) => Promise<S>,
): Promise<AdminWorld<S>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `lingua-${name}-`))
  const adminEmail = `admin-${name}-${target}@example.com`
  const server = await start({
    database: target,
    // Each file signs up several accounts from one address: more than 5 a minute.
    env: { DATA_DIR: dataDir, ADMIN_EMAILS: adminEmail, AUTH_RATE_LIMIT_SCALE: '20', ...env },
  })
  const signUp = async (email: string) => {
    const client = new Client(server)
    await registerAndVerify(client, dataDir, { email, password })
    return client
  }
  return {
    server,
    dataDir,
    adminEmail,
    admin: await signUp(adminEmail),
    learner: await signUp(`learner-${name}-${target}@example.com`),
    visitor: new Client(server),
    signUp,
    async stop() {
      await server.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
