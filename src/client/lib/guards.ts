import { type ParsedLocation, redirect } from '@tanstack/react-router'
import { type AppPath, type GuardName, guardsOf } from '@/shared/routes'
import type { AuthContext, SessionUser } from './auth'
import { HttpError } from './http-error'
import { safeRedirect } from './redirect'

export interface GuardContext {
  location: ParsedLocation
  context: { auth: AuthContext }
}

export type Guard = (ctx: GuardContext) => Promise<void> | void

async function requireUser(ctx: GuardContext): Promise<SessionUser> {
  const user = await ctx.context.auth.getUser()
  if (!user) {
    throw redirect({ to: '/login', search: { redirect: ctx.location.href } })
  }
  return user
}

/** The named route guards (docs/product.md §2). */
const guardRegistry: Readonly<Record<string, Guard>> = {
  auth: async (ctx) => {
    await requireUser(ctx)
  },
  admin: async (ctx) => {
    const user = await requireUser(ctx)
    // A role granted in the last minute may not be in the cached copy yet: ask the database
    // before refusing.
    if (user.role === 'admin') return
    if ((await ctx.context.auth.getFreshUser())?.role !== 'admin') {
      throw new HttpError(403, 'Administrators only', { key: 'adminsOnly' })
    }
  },
  // A signed-in visitor goes where `?redirect=` asked (after signing in here), else the dashboard.
  guest: async (ctx) => {
    if (!(await ctx.context.auth.getUser())) return
    const search = ctx.location.search as { redirect?: unknown }
    throw redirect({ href: safeRedirect(search.redirect) ?? '/dashboard' })
  },
}

export async function runGuards(
  names: readonly string[],
  ctx: GuardContext,
  registry: Readonly<Record<string, Guard>> = guardRegistry,
): Promise<void> {
  for (const name of names) {
    const guard = registry[name]
    if (!guard) throw new Error(`Unknown route middleware: '${name}'`)
    await guard(ctx)
  }
}

/** `beforeLoad` for a file route: the guards the shared route table gives its path. */
export function guardsFor(path: AppPath) {
  const names: readonly GuardName[] = guardsOf(path)
  return (ctx: GuardContext) => runGuards(names, ctx)
}

/**
 * `beforeLoad` for a file route with a parameter: a value not of its form (`valid` false) is a
 * missing page for everyone, before any guard (the server answers 404 too); then the path's guards.
 */
export function guardsForParams<Params>(path: AppPath, valid: (params: Params) => boolean) {
  const runPathGuards = guardsFor(path)
  return async (ctx: GuardContext & { params: Params }) => {
    if (!valid(ctx.params)) {
      const pathname = ctx.location.pathname
      throw new HttpError(404, `Page Not Found: ${pathname}`, { key: 'pageNotFoundParam', path: pathname })
    }
    await runPathGuards(ctx)
  }
}
