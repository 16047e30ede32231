import type { HttpBindings } from '@hono/node-server'
import type { Logger } from 'pino'
import type { Role } from '@/shared/roles'

/** The signed-in user as the API's routes see it (`readSession` in session.ts). */
export interface SessionUser {
  id: string
  name: string
  email: string
  role: Role
  emailVerified: boolean
}

/** Variables every request carries through the middleware chain. */
export interface AppEnv {
  /** Node's request and response (the app runs on @hono/node-server, http/node-server.ts). */
  Bindings: HttpBindings
  Variables: {
    requestId: string
    /** The request's logger, carrying its id (made on first use). */
    logger: () => Logger
    /** Set by `readSession` on the routes that need it; `null` for a visitor. */
    user?: SessionUser | null
  }
}
