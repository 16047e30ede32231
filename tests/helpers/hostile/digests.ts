import { createHash } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import type pg from 'pg'
import { outboxDir } from '@/server/mail/outbox'
import type { AdminWorld } from '../accounts'
import type { Client } from '../auth-client'

/** What a part of the stored data looks like now, by part: equal digests, nothing changed. */
export type Digest = Record<string, string>

/** The outbox: a rejected request must not send an email either. */
async function outboxDigest(dataDir: string): Promise<string> {
  const names = await readdir(outboxDir(dataDir)).catch(() => [])
  return `${names.length} emails ${createHash('sha256').update(names.sort().join('\n')).digest('hex')}`
}

/**
 * Every table of the database, read directly: row count and a hash of the rows. Of the sessions
 * only which exist: reads renew a session (its expiry and update time), and that is allowed. Nor
 * the passkey challenges: asking for one (a GET) stores it for one use within 5 minutes.
 */
export function postgresDigest(client: pg.Client, dataDir: string): () => Promise<Digest> {
  let query: string | undefined
  return async () => {
    if (!query) {
      const { rows } = await client.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
      )
      query = rows
        .map(({ table_name: table }) => {
          const columns = table === 'session' ? 'id, user_id, token' : '*'
          const rows = table === 'verification' ? ` where value !~ '^\\{"type":"(authentication|registration)"'` : ''
          return `select '${table}' as part, count(*) || ' rows ' || coalesce(md5(string_agg(t::text, E'\\n' order by t::text)), '') as digest from (select ${columns} from "${table}"${rows}) t`
        })
        .join(' union all ')
    }
    const { rows } = await client.query<{ part: string; digest: string }>(query)
    return { ...Object.fromEntries(rows.map((row) => [row.part, row.digest])), outbox: await outboxDigest(dataDir) }
  }
}

/**
 * On the embedded database (one process only: the server's), what the API shows of the stored
 * data instead: levels, can-do statements, words, audit log, both accounts with their profiles,
 * self-assessments, practice, sessions and logins, and the outbox (where a new account's email
 * would go).
 */
export function apiDigest(world: AdminWorld): () => Promise<Digest> {
  const read = async (client: Client, path: string, pick: (body: unknown) => unknown = (body) => body) => {
    const response = await client.request('GET', path)
    return JSON.stringify([response.status, pick(await response.json())])
  }
  const user = (body: unknown) => (body as { user?: unknown } | null)?.user
  const ids = (body: unknown) => (Array.isArray(body) ? body.map((item: { id?: unknown }) => item.id) : body)
  return async () => {
    const parts: Digest = {
      levels: await read(world.admin, '/api/language-levels?pageSize=100&sort=position'),
      auditLog: await read(world.admin, '/api/audit-log?pageSize=100'),
      canDoStatements: await read(world.admin, '/api/admin/can-do-statements'),
      // The words of the first level, by their count and the newest (every word write is audited too).
      words: await read(world.admin, '/api/language-levels/1/words?pageSize=1', (body) => (body as { total?: unknown } | null)?.total),
      outbox: await outboxDigest(world.dataDir),
    }
    for (const [name, client] of [['learner', world.learner], ['admin', world.admin]] as const) {
      parts[`${name}User`] = await read(client, '/api/auth/get-session?disableCookieCache=true', user)
      parts[`${name}Profile`] = await read(client, '/api/me/profile')
      parts[`${name}Assessment`] = await read(client, '/api/me/assessment')
      parts[`${name}Sessions`] = await read(client, '/api/auth/list-sessions', ids)
      parts[`${name}Accounts`] = await read(client, '/api/auth/list-accounts')
      parts[`${name}Practice`] = await read(client, '/api/me/practice/today')
      parts[`${name}PracticeSettings`] = await read(client, '/api/me/practice/settings')
    }
    return parts
  }
}

/** The parts whose digest differs. */
export function changedParts(before: Digest, after: Digest): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => before[key] !== after[key])
}
