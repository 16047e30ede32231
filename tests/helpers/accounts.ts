import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Client, registerAndVerify } from './auth-client'
import type { DatabaseTarget } from './database'
import { type ServerProcess, startServer } from './server'

export const password = 'correct horse battery'

/** A server with an administrator (listed in ADMIN_EMAILS), a learner and a visitor. */
export interface AdminWorld {
  server: ServerProcess
  dataDir: string
  adminEmail: string
  admin: Client
  learner: Client
  visitor: Client
  /** Signs up and confirms one more account; the client is signed in as it. */
  signUp(email: string): Promise<Client>
  stop(): Promise<void>
}

export async function startAdminWorld(
  target: DatabaseTarget,
  name: string,
  env: Record<string, string> = {},
): Promise<AdminWorld> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `lingua-${name}-`))
  const adminEmail = `admin-${name}-${target}@example.com`
  const server = await startServer({
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
