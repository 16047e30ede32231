import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Db } from '@/server/db/client'
import { serverSecret } from '@/server/db/schema'

/**
 * The secret that signs sessions and tokens: AUTH_SECRET when set, else one made on the first start
 * and kept in the database, so that `npm start` needs no setup and instances sharing a database
 * share the secret too.
 */
export async function loadAuthSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured
  await db
    .insert(serverSecret)
    .values({ name: 'auth', value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing()
  const [row] = await db.select().from(serverSecret).where(eq(serverSecret.name, 'auth'))
  if (!row) throw new Error('Could not read the auth secret from the database')
  return row.value
}
