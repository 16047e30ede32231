import { useStore } from '@nanostores/react'
import { Link, useNavigate, useRouterState } from '@tanstack/react-router'
import { useState } from 'react'
import { Avatar } from '@/client/components/ui/avatar'
import { DropdownMenu, menuItemClass, useDropdown } from '@/client/components/ui/dropdown-menu'
import { type SessionUser, signOut } from '@/client/lib/auth'
import { layoutMessages } from './messages'

/** The signed-in user's menu: a button with their name, opening Dashboard, Self-assessment, Account, Sign out. */
export default function UserMenu({ user }: { user: SessionUser }) {
  const t = useStore(layoutMessages)
  const navigate = useNavigate()
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  const [openedAt, setOpenedAt] = useState<string | null>(null)
  const open = openedAt === pathname
  const { menuId, root } = useDropdown(open, () => setOpenedAt(null))

  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpenedAt(open ? null : pathname)}
        className="flex h-10 items-center gap-2 rounded-md px-2 text-sm font-medium hover:bg-muted"
      >
        <span aria-hidden="true" className="contents">
          <Avatar src={user.image} alt={user.name} size="md" />
        </span>
        <span className="max-w-40 truncate">{user.name}</span>
      </button>
      <DropdownMenu id={menuId} open={open} className="right-0 z-50">
        <Link to="/dashboard" className={menuItemClass}>
          {t.dashboard}
        </Link>
        <Link to="/assessment" className={menuItemClass}>
          {t.assessment}
        </Link>
        <Link to="/account" className={menuItemClass}>
          {t.account}
        </Link>
        {user.role === 'admin' && (
          <Link to="/admin" className={menuItemClass}>
            {t.administration}
          </Link>
        )}
        <button
          type="button"
          className={menuItemClass}
          onClick={() => void signOut().then(() => navigate({ to: '/' }))}
        >
          {t.signOut}
        </button>
      </DropdownMenu>
    </div>
  )
}
