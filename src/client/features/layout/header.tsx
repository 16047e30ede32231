import { useStore } from '@nanostores/react'
import { Link, useRouterState } from '@tanstack/react-router'
import { Suspense, lazy, useId, useState } from 'react'
import { Button, buttonClass } from '@/client/components/ui/button'
import { CloseIcon, MenuIcon, SearchIcon } from '@/client/components/ui/icons'
import { Tooltip } from '@/client/components/ui/tooltip'
import { currentUser } from '@/client/lib/auth'
import { navigationMessages } from '@/client/lib/messages'
import { itemsOf } from '@/client/lib/navigation'
import { runtimeConfig } from '@/client/lib/runtime-config'
import { LanguageSwitch } from './language-switch'
import { layoutMessages } from './messages'
import { ThemeSwitch } from './theme-switch'

// Only signed-in users need the menu (and its avatar): it loads with their first page.
const UserMenu = lazy(() => import('./user-menu'))

const navLinkClass =
  'rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-muted hover:text-foreground data-[status=active]:text-foreground data-[status=active]:underline data-[status=active]:decoration-primary data-[status=active]:decoration-2 data-[status=active]:underline-offset-8'

function AccountButtons() {
  const t = useStore(navigationMessages)
  const user = useStore(currentUser)
  // Nothing until the session is known: no flash of the wrong buttons.
  if (user === undefined) return null
  if (user) {
    return (
      <Suspense fallback={null}>
        <UserMenu user={user} />
      </Suspense>
    )
  }
  return (
    <>
      <Link to="/login" className={buttonClass({ variant: 'ghost' })}>{t.signIn}</Link>
      <Link to="/register" className={buttonClass()}>{t.register}</Link>
    </>
  )
}

/** The bar on top of every page; `onSearch` opens the search (the command palette). */
export function Header({ onSearch }: { onSearch: () => void }) {
  const t = useStore(layoutMessages)
  const pages = useStore(navigationMessages)
  const menuId = useId()
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  // The small-screen menu belongs to the page it was opened on: navigating closes it.
  const [menuOpenedAt, setMenuOpenedAt] = useState<string | null>(null)
  const menuOpen = menuOpenedAt === pathname

  const user = useStore(currentUser)
  const mainLinks = [
    ...itemsOf('main').map((item) => (
      <Link key={item.to} to={item.to} className={navLinkClass} activeOptions={{ exact: true }}>
        {pages[item.label]}
      </Link>
    )),
    // Signed-in people practise every day, their own decks too: one click from anywhere.
    user && (
      <Link key="/practice" to="/practice" className={navLinkClass}>
        {t.practice}
      </Link>
    ),
    user && (
      <Link key="/decks" to="/decks" className={navLinkClass}>
        {t.decks}
      </Link>
    ),
  ]

  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4">
        <Link to="/" className="mr-2 flex items-center gap-2 text-lg font-bold tracking-tight">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          {runtimeConfig().appName}
        </Link>
        <nav aria-label={t.mainNavigation} className="hidden items-center gap-1 md:flex">
          {mainLinks}
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <Tooltip label={t.searchWithShortcut({ shortcut: 'Ctrl+K' })} align="end">
            <Button
              variant="ghost"
              size="icon"
              aria-label={t.search}
              aria-keyshortcuts="Control+K Meta+K"
              onClick={onSearch}
            >
              <SearchIcon />
            </Button>
          </Tooltip>
          <ThemeSwitch />
          <LanguageSwitch className="hidden md:flex" />
          <div className="hidden items-center gap-2 md:flex">
            <AccountButtons />
          </div>
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label={t.menu}
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpenedAt(menuOpen ? null : pathname)}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </Button>
        </div>
      </div>
      <div id={menuId} hidden={!menuOpen} className="border-t px-4 py-3 md:hidden">
        <nav aria-label={t.mainNavigation} className="flex flex-col gap-1">
          {mainLinks}
        </nav>
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <LanguageSwitch />
          <AccountButtons />
        </div>
      </div>
    </header>
  )
}
