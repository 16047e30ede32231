import { atom } from 'nanostores'
import { type Role, roleOf } from '@/shared/roles'
import { api } from './api'
import { withReadRetries } from './retry'

/** The signed-in user as the client knows it. */
export interface SessionUser {
  id: string
  name: string
  email: string
  role: Role
  image?: string | null
  emailVerified?: boolean
  twoFactorEnabled?: boolean
}

/** What guards know about the visitor; the router context carries it. */
export interface AuthContext {
  getUser(): Promise<SessionUser | null>
  /** The user read from the database (the session's cached copy may be up to 60 s old). */
  getFreshUser(): Promise<SessionUser | null>
}

/** What subscribers of `onAuthStateChange` hear (docs/product.md §5). */
export type AuthEvent =
  | 'INITIAL_SESSION'
  | 'SIGNED_IN'
  | 'SIGNED_OUT'
  | 'TOKEN_REFRESHED'
  | 'USER_UPDATED'
  | 'PASSWORD_RECOVERY'
  | 'MFA_CHALLENGE_VERIFIED'

export type AuthListener = (event: AuthEvent, user: SessionUser | null) => void

interface SessionAnswer {
  session: { id: string }
  // The role as stored: roleOf reads it.
  user: Omit<SessionUser, 'role'> & {
    role?: string | null
    image?: string | null
    emailVerified: boolean
    twoFactorEnabled?: boolean
  }
}

/** The signed-in user; `undefined` until the first answer of the server. */
export const currentUser = atom<SessionUser | null | undefined>(undefined)
/** The id of this browser's session (to tell it apart in the list of active sessions). */
export const currentSessionId = atom<string | null>(null)

const listeners = new Set<AuthListener>()
let loading: Promise<SessionUser | null> | undefined

/** The user as the subscribers were last told (JSON), to tell a change once however it is heard. */
let told: string | undefined

/**
 * Tells the subscribers. `USER_UPDATED` only when the user is not what they were last told: a
 * change is heard from this tab's own write, another tab and the live stream, in any order.
 */
function emit(event: AuthEvent, user: SessionUser | null) {
  const now = JSON.stringify(user)
  if (event === 'USER_UPDATED' && now === told) return
  told = now
  for (const listener of listeners) listener(event, user)
  // For listeners outside the app (browser tests, extensions, analytics): the event, no user data.
  window.dispatchEvent(new CustomEvent('lingua:auth', { detail: { event } }))
}

function toUser(answer: SessionAnswer | null): SessionUser | null {
  if (!answer) return null
  const { id, name, email, role, image, emailVerified, twoFactorEnabled } = answer.user
  return {
    id,
    name,
    email,
    role: roleOf(role),
    image: image ?? null,
    emailVerified,
    twoFactorEnabled: twoFactorEnabled ?? false,
  }
}

function readSession(path: string): Promise<SessionUser | null> {
  return withReadRetries(() => api<SessionAnswer | null>(path)).then((answer) => {
    const user = toUser(answer)
    currentSessionId.set(answer?.session.id ?? null)
    const first = currentUser.get() === undefined
    currentUser.set(user)
    if (first) emit('INITIAL_SESSION', user)
    return user
  })
}

/** The session read from the database: its cached copy in the cookie may be up to 60 s old. */
const readFreshSession = () => readSession('/auth/get-session?disableCookieCache=true')

/**
 * The server rendered this page for a visitor (its request carried no session cookie): nobody is
 * signed in, without asking.
 */
export function startAsVisitor(): void {
  if (currentUser.get() !== undefined) return
  currentSessionId.set(null)
  currentUser.set(null)
  emit('INITIAL_SESSION', null)
}

/** Asks the server who is signed in (once; later calls share the answer). */
export function loadSession(): Promise<SessionUser | null> {
  loading ??= readSession('/auth/get-session').finally(() => {
    loading = undefined
  })
  return loading
}

/**
 * Every tab of the app shares the session cookie; this channel tells the other tabs when it
 * changed, so that signing out in one tab signs out all of them.
 */
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('lingua-auth')
channel?.addEventListener('message', (event: MessageEvent<AuthEvent>) => {
  if (event.data === 'SIGNED_OUT') {
    currentUser.set(null)
    emit('SIGNED_OUT', null)
  } else {
    void loadSession().then((user) => emit(event.data, user))
  }
})

/**
 * After a successful sign-in (or any change of the user): reads the session again and tells the
 * subscribers of this tab and the other tabs, event by event.
 */
export async function refreshSession(...events: AuthEvent[]): Promise<SessionUser | null> {
  const user = await readFreshSession()
  for (const event of events) {
    emit(event, user)
    channel?.postMessage(event)
  }
  return user
}

/** How long a session seen missing after a live event is given to come back before signing out. */
const SESSION_END_CONFIRM_MS = 750

/**
 * Something about the account changed elsewhere (a live event): reads the session from the
 * database and says `USER_UPDATED` if the user changed (`emit` says it once), `SIGNED_OUT` if the
 * session ended. Resolves once that is known (one check at a time, shared).
 */
export function followAccountChange(): Promise<void> {
  following ??= checkAccount().finally(() => {
    following = undefined
  })
  return following
}
/** The check under way: the stream's listeners of one event share it. */
let following: Promise<void> | undefined

async function checkAccount(): Promise<void> {
  const before = currentUser.get()
  if (!before) return
  // A session being replaced (a password change, two-step verification turned on: the answer
  // that sets the new cookie may still be on its way) is missing for a moment: asked again.
  const first = await api<SessionAnswer | null>('/auth/get-session?disableCookieCache=true').catch(() => before)
  if (first === null) await new Promise((resolve) => setTimeout(resolve, SESSION_END_CONFIRM_MS))
  const user = await readFreshSession().catch(() => before)
  if (user) emit('USER_UPDATED', user)
  // Once: the end of a session is heard on the stream and from the tab that signed out.
  else if (told !== 'null') emit('SIGNED_OUT', null)
}

/** How often an open tab checks that its session still holds (and renews it: used = renewed). */
const SESSION_CHECK_INTERVAL_MS = 5 * 60 * 1000

/**
 * Reads the session from the database when a signed-in tab comes back into view and every five
 * minutes while it is visible: `TOKEN_REFRESHED` while it holds, `SIGNED_OUT` once it was revoked
 * elsewhere (another device, "sign out everywhere", a password change). Returns the stop function.
 */
export function keepSessionFresh(): () => void {
  const check = () => {
    if (document.visibilityState !== 'visible' || !currentUser.get()) return
    void readFreshSession()
      .then((user) => emit(user ? 'TOKEN_REFRESHED' : 'SIGNED_OUT', user))
      // Offline or unavailable for now: the next check tries again.
      .catch(() => undefined)
  }
  const timer = setInterval(check, SESSION_CHECK_INTERVAL_MS)
  document.addEventListener('visibilitychange', check)
  return () => {
    clearInterval(timer)
    document.removeEventListener('visibilitychange', check)
  }
}

/**
 * An event this tab alone hears (the recovery link was opened here): after `INITIAL_SESSION`,
 * so that subscribers hear the session before what happens in it.
 */
export function announce(event: AuthEvent): void {
  const user = currentUser.get()
  if (user !== undefined) emit(event, user)
  else void loadSession().then((loaded) => emit(event, loaded), () => emit(event, null))
}

/** The session has ended on the server (signed out everywhere, account deleted). */
export function sessionEnded(): void {
  currentUser.set(null)
  emit('SIGNED_OUT', null)
  channel?.postMessage('SIGNED_OUT')
}

export async function signOut(): Promise<void> {
  await api('/auth/sign-out', { method: 'POST', json: {} })
  sessionEnded()
}

/** Subscribes to session events; a subscriber joining late hears INITIAL_SESSION at once. */
export function onAuthStateChange(listener: AuthListener): () => void {
  listeners.add(listener)
  const user = currentUser.get()
  if (user !== undefined) listener('INITIAL_SESSION', user)
  return () => listeners.delete(listener)
}

/** The visitor's session as guards see it. */
export const authContext: AuthContext = {
  getFreshUser: readFreshSession,
  getUser: () => {
    const user = currentUser.get()
    return user === undefined ? loadSession() : Promise.resolve(user)
  },
}
