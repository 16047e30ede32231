import { useStore } from '@nanostores/react'
import { Link, useNavigate, useRouterState } from '@tanstack/react-router'
import { useId, useLayoutEffect, useRef, useState } from 'react'
import { Avatar } from '@/client/components/ui/avatar'
import { type SessionUser, signOut } from '@/client/lib/auth'
import { layoutMessages } from './messages'

const itemClass = 'block w-full rounded-md px-3 py-2 text-left text-sm hover:bg-accent'

/** The signed-in user's menu: a button with their name, opening Dashboard, Self-assessment, Account, Sign out. */
export default function UserMenu({ user }: { user: SessionUser }) {
  const t = useStore(layoutMessages)
  const navigate = useNavigate()
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  const [openedAt, setOpenedAt] = useState<string | null>(null)
  const open = openedAt === pathname
  const menuId = useId()
  const root = useRef<HTMLDivElement>(null)

  // Listening from the moment the menu shows (a layout effect, before the browser paints the open
  // menu): an Escape pressed at once is heard.
  useLayoutEffect(() => {
    if (!open) return
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) {
        setOpenedAt(null)
      }
    }
    document.addEventListener('keydown', close)
    document.addEventListener('pointerdown', close)
    return () => {
      document.removeEventListener('keydown', close)
      document.removeEventListener('pointerdown', close)
    }
  }, [open])

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
      <div
        id={menuId}
        hidden={!open}
        className="absolute right-0 z-50 mt-2 w-48 rounded-lg border bg-card p-1 shadow-lg"
      >
        <Link to="/dashboard" className={itemClass}>
          {t.dashboard}
        </Link>
        <Link to="/assessment" className={itemClass}>
          {t.assessment}
        </Link>
        <Link to="/account" className={itemClass}>
          {t.account}
        </Link>
        {user.role === 'admin' && (
          <Link to="/admin" className={itemClass}>
            {t.administration}
          </Link>
        )}
        <button
          type="button"
          className={itemClass}
          onClick={() => void signOut().then(() => navigate({ to: '/' }))}
        >
          {t.signOut}
        </button>
      </div>
    </div>
  )
}
