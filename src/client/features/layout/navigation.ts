/** Pages offered by the header, the footer and the command palette. */
export const navigationItems = [
  { to: '/', label: 'nav.home', area: 'main' },
  { to: '/about', label: 'nav.about', area: 'main' },
  { to: '/fetching', label: 'nav.fetching', area: 'demos' },
  { to: '/fetching-post', label: 'nav.fetchingPost', area: 'demos' },
  { to: '/shared-state-home', label: 'nav.sharedState', area: 'demos' },
  { to: '/login', label: 'auth.signIn', area: 'account' },
  { to: '/register', label: 'auth.register', area: 'account' },
] as const

export type NavigationItem = (typeof navigationItems)[number]

export function itemsOf(area: NavigationItem['area']) {
  return navigationItems.filter((item) => item.area === area)
}
