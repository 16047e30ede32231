import type { navigationMessages } from './messages'

type Label = keyof ReturnType<typeof navigationMessages.get>

/** Pages offered by the header, the footer and the command palette. */
export const navigationItems = [
  { to: '/', label: 'home', area: 'main' },
  { to: '/about', label: 'about', area: 'main' },
  { to: '/fetching', label: 'fetching', area: 'demos' },
  { to: '/fetching-post', label: 'fetchingPost', area: 'demos' },
  { to: '/shared-state-home', label: 'sharedState', area: 'demos' },
  { to: '/login', label: 'signIn', area: 'account' },
  { to: '/register', label: 'register', area: 'account' },
] as const satisfies readonly { to: string; label: Label; area: string }[]

export type NavigationItem = (typeof navigationItems)[number]

export function itemsOf(area: NavigationItem['area']) {
  return navigationItems.filter((item) => item.area === area)
}
