import { useStore } from '@nanostores/react'
import { Link, useRouterState } from '@tanstack/react-router'
import { currentUser } from '@/client/lib/auth'
import { cn } from '@/client/lib/cn'
import { adminNavMessages } from './messages'

const sections = [
  { to: '/admin', label: 'overview' },
  { to: '/admin/users', label: 'people' },
  { to: '/admin/language-levels', label: 'levels' },
  { to: '/admin/can-do', label: 'canDo' },
  { to: '/admin/recent-changes', label: 'recentChanges' },
] as const

/** The section of `pathname`: the longest section path it is, or is inside. */
function sectionOf(pathname: string): string | undefined {
  const path = pathname.replace(/\/+$/, '') || '/'
  return sections
    .map((section) => section.to as string)
    .filter((to) => path === to || (to !== '/admin' && path.startsWith(`${to}/`)))
    .sort((a, b) => b.length - a.length)[0]
}

const linkClass =
  'inline-flex items-center rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap hover:bg-muted hover:text-foreground'
const currentClass = 'bg-muted text-foreground underline decoration-primary decoration-2 underline-offset-8'

/**
 * The admin area's sections, on top of every admin page. The section's own page is the current
 * page (`aria-current="page"`); a page inside it (a level, a person) marks its section with
 * `aria-current="true"`. Shown to administrators only: a learner may open the level form, which
 * is guarded by sign-in alone.
 */
export function AdminSectionNav() {
  const t = useStore(adminNavMessages)
  const isAdmin = useStore(currentUser)?.role === 'admin'
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  if (!isAdmin) return null
  const current = sectionOf(pathname)
  return (
    <nav aria-label={t.label} className="mb-8 border-b pb-2">
      <ul className="-mx-1 flex flex-wrap gap-1">
        {sections.map((section) => (
          <li key={section.to}>
            <Link
              to={section.to}
              className={cn(linkClass, current === section.to ? currentClass : 'text-muted-foreground')}
              // Only the section's own page counts as the page; the router would also count
              // `?page=2` as another page.
              activeOptions={{ exact: true, includeSearch: false }}
              aria-current={current === section.to ? 'true' : undefined}
            >
              {t[section.label]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
