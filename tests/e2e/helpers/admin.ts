import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test'
import { freePort, spawnNodeServer, waitReady } from '../../../scripts/lib/server.mjs'
import { signedInAs } from './accounts'
import { expect } from './fixtures'

/** The administrator of the shared server (ADMIN_EMAILS in playwright.config.ts). */
export const adminEmail = process.env.E2E_ADMIN_EMAIL ?? 'admin@lingua.test'
export const adminName = 'Ada Admin'

/** Where admin.setup.ts keeps the administrator's signed-in state for this run. */
export const adminStatePath = path.join(process.env.E2E_DATA_DIR ?? os.tmpdir(), 'admin-state.json')

export interface Level {
  id: number
  code: string
  name: string
  description: string
  position: number
  version: number
}

/** A level code no other test uses (codes are at most 16 characters). */
export function uniqueCode(prefix = 'T'): string {
  return `${prefix}${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase()
}

/** Writes as the signed-in administrator, through the API (setting up what a journey starts from). */
export function levelsApi(request: APIRequestContext, origin: string) {
  const headers = { Origin: origin }
  return {
    async create(code: string, name = `Level ${code}`, description = `About ${code}.`): Promise<Level> {
      const response = await request.post('/api/language-levels', { headers, data: { code, name, description } })
      expect(response.status(), await response.text()).toBe(201)
      return (await response.json()) as Level
    },
    async get(id: number): Promise<Level | undefined> {
      const response = await request.get(`/api/language-levels/${id}`)
      return response.status() === 404 ? undefined : ((await response.json()) as Level)
    },
    async ordered(): Promise<Level[]> {
      const response = await request.get('/api/language-levels?sort=position&pageSize=100')
      expect(response.status()).toBe(200)
      return ((await response.json()) as { items: Level[] }).items
    },
    /** Deletes, if it is still there. */
    async remove(id: number): Promise<void> {
      const response = await request.delete(`/api/language-levels/${id}`, { headers })
      expect([204, 404]).toContain(response.status())
    },
  }
}

/** The codes of the reorder list, top to bottom, read from the labels of the handles ("Move B2 …"). */
export async function reorderCodes(page: Page): Promise<string[]> {
  const handles = page.getByRole('region', { name: 'Reorder levels' }).getByRole('button', { name: /^Move / })
  const labels = await handles.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? ''))
  return labels.map((label) => label.split(' ')[1] ?? '')
}

export interface OwnServer {
  url: string
  stop(): Promise<void>
}

/**
 * A server of its own (the built app on a fresh PGlite folder and a free port), for a test that
 * changes what every other test relies on, e.g. deleting every level. Without ADMIN_EMAILS, its
 * first account to confirm its email becomes admin. It mails the shared test mail server.
 * `env` adds to or overrides its environment, e.g. DATABASE_URL to run on PostgreSQL instead.
 */
export async function startOwnServer(options: { env?: Record<string, string> } = {}): Promise<OwnServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lingua-e2e-own-'))
  const port = await freePort()
  const server = spawnNodeServer({
    port,
    env: {
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      APP_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT ?? 4025}`,
      MAIL_FROM: 'Lingua <no-reply@lingua.test>',
      AUTH_RATE_LIMIT_SCALE: '20',
      ...options.env,
    },
  })
  const stop = async () => {
    await server.stop({ killAfterMs: 10_000 })
    rmSync(dataDir, { recursive: true, force: true })
  }
  await waitReady(server).catch(async (error: unknown) => {
    await stop()
    throw error
  })
  return { url: server.url, stop }
}

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>

export interface OwnAdminWorld {
  server: OwnServer
  /** The administrator's signed-in state (`browser.newContext({ storageState })`). */
  admin: StorageState
  /** The levels, in their order. */
  levels: Level[]
}

/**
 * A server of its own (`startOwnServer`) whose first account, `name`, is its administrator,
 * signed in: for a worker fixture or a `beforeAll`, which stops `server` when done.
 */
export async function startOwnAdminWorld(
  browser: Browser,
  name: string,
  options: { env?: Record<string, string> } = {},
): Promise<OwnAdminWorld> {
  const server = await startOwnServer(options)
  try {
    const context = await browser.newContext({ baseURL: server.url })
    try {
      await signedInAs(context, server.url, name)
      const levels = (
        (await (await context.request.get('/api/language-levels?sort=position&pageSize=100')).json()) as { items: Level[] }
      ).items
      return { server, admin: await context.storageState(), levels }
    } finally {
      await context.close()
    }
  } catch (error) {
    await server.stop()
    throw error
  }
}
