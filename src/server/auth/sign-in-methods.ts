import { APIError, getSessionFromCtx, isAPIError } from 'better-auth/api'
import { and, count, eq, ne } from 'drizzle-orm'
import type { Logger } from 'pino'
import { passkeyNameSchema } from '@/shared/auth-schemas'
import type { SignInMethods } from '@/shared/sign-in-methods'
import type { Config } from '@/server/config'
import type { Db } from '@/server/db/client'
import { type AuditActor, recordAudit } from '@/server/audit/record'
import { account, passkey, user } from '@/server/db/schema'
import { type Mailer, type SignInMethodChange, composeMail } from '@/server/mail/index'
import { localeOf } from './emails'

/** The provider id better-auth gives an account's password. */
export const PASSWORD_PROVIDER = 'credential'

/** Password + linked provider identities + passkeys of an account. */
async function countSignInMethods(db: Db, userId: string): Promise<number> {
  const [accounts] = await db.select({ n: count() }).from(account).where(eq(account.userId, userId))
  const [passkeys] = await db.select({ n: count() }).from(passkey).where(eq(passkey.userId, userId))
  return (accounts?.n ?? 0) + (passkeys?.n ?? 0)
}

/**
 * An account's sign-in rows, oldest first, without a secret (no password hash, token or key): its
 * accounts (the password, provider identities) and passkeys. Read by the account's own list, the
 * administrators' page of a person and the copy of one's data.
 */
export async function readSignInRows(db: Db, userId: string) {
  const [accounts, passkeys] = await Promise.all([
    db
      .select({
        id: account.id,
        providerId: account.providerId,
        accountId: account.accountId,
        scope: account.scope,
        createdAt: account.createdAt,
      })
      .from(account)
      .where(eq(account.userId, userId))
      .orderBy(account.createdAt),
    db
      .select({
        id: passkey.id,
        name: passkey.name,
        createdAt: passkey.createdAt,
        lastUsedAt: passkey.lastUsedAt,
        deviceType: passkey.deviceType,
        backedUp: passkey.backedUp,
      })
      .from(passkey)
      .where(eq(passkey.userId, userId))
      .orderBy(passkey.createdAt),
  ])
  return { accounts, passkeys }
}

/** What `/account` lists under "Sign-in methods" (`GET /api/me/sign-in-methods`). */
export async function listSignInMethods(
  db: Db,
  providers: Config['providers'],
  userId: string,
): Promise<SignInMethods> {
  const { accounts, passkeys } = await readSignInRows(db, userId)
  return {
    password: accounts.some((row) => row.providerId === PASSWORD_PROVIDER),
    providers: providers.map(({ id, name }) => ({
      id,
      name,
      linked: accounts
        .filter((row) => row.providerId === id)
        .map((row) => ({ id: row.id, accountId: row.accountId, linkedAt: row.createdAt.toISOString() })),
    })),
    passkeys: passkeys.map((row) => ({
      ...row,
      createdAt: row.createdAt?.toISOString() ?? null,
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    })),
    count: accounts.length + passkeys.length,
  }
}

/** The last way to sign in is never removed (docs/product.md §9). */
function lastMethodRefused(): APIError {
  return new APIError('CONFLICT', {
    code: 'LAST_SIGN_IN_METHOD',
    message: 'This is the only way left to sign in to this account. Add another one before removing it.',
  })
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

interface HookContext {
  path: string
  body?: unknown
  request?: Request
  context: { returned?: unknown }
}

/**
 * Around better-auth's endpoints that change an account's sign-in methods: the last one is never
 * removed, passkey names are checked, and every change is written to the audit log and mailed to
 * the owner. Linking a provider is noticed where better-auth writes the account
 * (`onProviderLinked`, from the database hooks).
 */
export function signInMethodHooks({ config, db, mailer, logger }: {
  config: Config
  db: Db
  mailer: Mailer
  logger: Logger
}) {
  /** The passkey a rename or a removal is about, read before the change (its name goes away). */
  const passkeyBefore = new WeakMap<Request, { id: string; name: string | null }>()
  /** The provider of an identity being unlinked (better-auth is given the account row's id). */
  const unlinking = new WeakMap<Request, string>()
  const providerName = (id: string) =>
    id === PASSWORD_PROVIDER ? 'Password' : (config.providers.find((provider) => provider.id === id)?.name ?? id)

  async function record(
    actor: NonNullable<AuditActor>,
    action: 'sign-in-method.link' | 'sign-in-method.unlink' | 'passkey.add' | 'passkey.rename' | 'passkey.remove',
    change: SignInMethodChange,
    name: string,
    before: unknown,
    after: unknown,
    request: Request | undefined,
  ) {
    await recordAudit(db, actor, { action, targetType: 'user', targetId: actor.email, before, after })
    const mail = composeMail(actor.email, {
      kind: 'sign-in-methods-changed',
      appName: config.appName,
      locale: localeOf(request),
      link: `${config.appUrl}/account`,
      change,
      name,
    })
    // A security notice is never held back by the throttle of requested emails.
    await mailer.send(mail, { claimed: true }).catch((error: unknown) => {
      logger.error({ err: error, userId: actor.id }, 'could not mail the sign-in method change')
    })
  }

  const body = (ctx: HookContext): Record<string, unknown> => (isRecord(ctx.body) ? ctx.body : {})

  return {
    async before(ctx: HookContext & Parameters<typeof getSessionFromCtx>[0]) {
      const sent = body(ctx)
      if (ctx.path === '/passkey/verify-registration' || ctx.path === '/passkey/update-passkey') {
        if ((ctx.path === '/passkey/update-passkey' || sent.name !== undefined) && !passkeyNameSchema.safeParse(sent.name).success) {
          throw new APIError('BAD_REQUEST', {
            code: 'INVALID_PASSKEY_NAME',
            message: 'Enter a name of 1 to 60 visible characters for the passkey.',
          })
        }
      }
      if (ctx.path !== '/unlink-account' && ctx.path !== '/passkey/delete-passkey' && ctx.path !== '/passkey/update-passkey') return
      // A body better-auth will refuse (400) is left to it.
      if (typeof (ctx.path === '/unlink-account' ? sent.accountId : sent.id) !== 'string') return
      const session = await getSessionFromCtx(ctx)
      if (!session) return // better-auth answers 401 itself
      if (ctx.path === '/unlink-account') {
        const [found] = await db
          .select({ providerId: account.providerId })
          .from(account)
          .where(and(eq(account.id, String(sent.accountId)), eq(account.userId, session.user.id)))
        if (!found) return // better-auth answers that there is no such account
        if (ctx.request) unlinking.set(ctx.request, found.providerId)
      } else {
        // Another account's passkey is as unknown as one that never was: 404 for both.
        const [found] = await db
          .select({ id: passkey.id, name: passkey.name })
          .from(passkey)
          .where(and(eq(passkey.id, String(sent.id)), eq(passkey.userId, session.user.id)))
        if (!found) throw new APIError('NOT_FOUND', { code: 'NOT_FOUND', message: 'Passkey not found.' })
        if (ctx.request) passkeyBefore.set(ctx.request, found)
      }
      if (ctx.path !== '/passkey/update-passkey' && (await countSignInMethods(db, session.user.id)) <= 1) {
        throw lastMethodRefused()
      }
    },

    async after(ctx: HookContext & Parameters<typeof getSessionFromCtx>[0]) {
      const returned = ctx.context.returned
      if (isAPIError(returned) || returned instanceof Response) return
      const paths = ['/unlink-account', '/passkey/verify-registration', '/passkey/update-passkey', '/passkey/delete-passkey']
      if (!paths.includes(ctx.path)) return
      const session = await getSessionFromCtx(ctx)
      if (!session) return
      const actor = { id: session.user.id, email: session.user.email }
      const sent = body(ctx)
      const before = ctx.request ? passkeyBefore.get(ctx.request) : undefined
      switch (ctx.path) {
        case '/unlink-account': {
          const providerId = ctx.request ? (unlinking.get(ctx.request) ?? 'unknown') : 'unknown'
          return record(actor, 'sign-in-method.unlink', 'provider-unlinked', providerName(providerId), { provider: providerId }, null, ctx.request)
        }
        case '/passkey/verify-registration': {
          const added = isRecord(returned) ? returned : {}
          const name = typeof added.name === 'string' ? added.name : 'Passkey'
          return record(actor, 'passkey.add', 'passkey-added', name, null, { passkey: added.id, name }, ctx.request)
        }
        case '/passkey/update-passkey': {
          const name = String(sent.name).trim()
          return record(actor, 'passkey.rename', 'passkey-renamed', name, { passkey: before?.id, name: before?.name ?? null }, { passkey: before?.id, name }, ctx.request)
        }
        case '/passkey/delete-passkey':
          return record(actor, 'passkey.remove', 'passkey-removed', before?.name ?? 'Passkey', { passkey: before?.id, name: before?.name ?? null }, null, ctx.request)
      }
    },

    /**
     * A provider identity written to an existing account (linked from `/account`, or at a provider
     * sign-in whose verified email matched the account). Not for an account the same sign-in made.
     */
    async onProviderLinked(linked: { userId: string; providerId: string; accountId: string }, request: Request | undefined) {
      if (linked.providerId === PASSWORD_PROVIDER) return
      const [owner] = await db.select({ id: user.id, email: user.email }).from(user).where(eq(user.id, linked.userId))
      if (!owner) return
      const others = await db
        .select({ n: count() })
        .from(account)
        .where(and(eq(account.userId, linked.userId), ne(account.providerId, linked.providerId)))
      // The account's first way in: it was made by this very sign-in, nothing was linked to it.
      if ((others[0]?.n ?? 0) === 0) return
      await record(
        { id: owner.id, email: owner.email },
        'sign-in-method.link',
        'provider-linked',
        providerName(linked.providerId),
        null,
        { provider: linked.providerId },
        request,
      )
    },

    /** After a passkey signed someone in: when it was last used, for the list. */
    async touchPasskey(credentialId: string) {
      await db.update(passkey).set({ lastUsedAt: new Date() }).where(eq(passkey.credentialID, credentialId))
    },
  }
}
