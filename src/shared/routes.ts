/**
 * The one route table of the app. The client's file routes take their guards from it and a unit
 * test checks it against the generated route tree; the server uses it to answer the app shell with
 * 200 for a known route and 404 for anything else.
 */
import { USER_ID_PATTERN } from './people'

export type GuardName = 'auth' | 'admin' | 'guest'

export interface RouteEntry {
  /** TanStack Router path pattern (`$param` for a parameter). */
  readonly path: string
  readonly guards: readonly GuardName[]
}

export const routeTable = [
  { path: '/', guards: [] },
  { path: '/about', guards: [] },
  { path: '/login', guards: ['guest'] },
  { path: '/register', guards: ['guest'] },
  { path: '/confirm', guards: [] },
  // A reminder email's "Stop these reminders": its token, not a session, says whose.
  { path: '/reminders/unsubscribe', guards: [] },
  { path: '/dashboard', guards: ['auth'] },
  { path: '/account', guards: ['auth'] },
  { path: '/assessment', guards: ['auth'] },
  { path: '/practice', guards: ['auth'] },
  { path: '/progress', guards: ['auth'] },
  { path: '/decks', guards: ['auth'] },
  // `auth` only: whose deck it is, the API says (404 for another learner's, as for none).
  { path: '/decks/$id', guards: ['auth'] },
  { path: '/create', guards: ['admin'] },
  { path: '/admin', guards: ['admin'] },
  { path: '/admin/users', guards: ['admin'] },
  { path: '/admin/users/$userId', guards: ['admin'] },
  { path: '/admin/recent-changes', guards: ['admin'] },
  { path: '/admin/language-levels', guards: ['admin'] },
  // `auth` only, not `admin` (docs/product.md §3): the page tells a non-admin why they cannot
  // create, and the server refuses them anyway.
  { path: '/admin/language-levels/create', guards: ['auth'] },
  { path: '/admin/language-levels/$id', guards: ['admin'] },
  { path: '/admin/can-do', guards: ['admin'] },
  { path: '/fetching', guards: [] },
  { path: '/fetching-post', guards: [] },
  { path: '/shared-state-home', guards: [] },
  { path: '/shared-state-about', guards: [] },
] as const satisfies readonly RouteEntry[]

export type AppPath = (typeof routeTable)[number]['path']

/** Route parameters that must be positive integers (`1`, `42`; not `0`, `01`, `-1`, `1.5`). */
const positiveIntPattern = /^[1-9]\d{0,15}$/

export function parsePositiveInt(value: string): number | undefined {
  return positiveIntPattern.test(value) ? Number(value) : undefined
}

const paramValidators: Record<string, (value: string) => boolean> = {
  id: (value) => parsePositiveInt(value) !== undefined,
  userId: (value) => USER_ID_PATTERN.test(value),
}

export function guardsOf(path: AppPath): readonly GuardName[] {
  const entry = routeTable.find((route) => route.path === path)
  if (!entry) throw new Error(`No route ${path} in the route table`)
  return entry.guards
}

function normalize(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  return trimmed === '' ? '/' : trimmed
}

/** Whether a URL path names a page of the app, with valid parameters. */
export function matchRoute(pathname: string): RouteEntry | undefined {
  let decoded: string
  try {
    decoded = decodeURIComponent(normalize(pathname))
  } catch {
    return undefined
  }
  const segments = decoded.split('/')
  const exact = routeTable.find((route) => route.path === decoded)
  if (exact) return exact
  return routeTable.find((route) => {
    const pattern = route.path.split('/')
    if (pattern.length !== segments.length) return false
    return pattern.every((part, i) => {
      const segment = segments[i] ?? ''
      if (!part.startsWith('$')) return part === segment
      const validate = paramValidators[part.slice(1)]
      return segment !== '' && (validate ? validate(segment) : true)
    })
  })
}
