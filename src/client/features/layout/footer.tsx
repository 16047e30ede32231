import { useStore } from '@nanostores/react'
import { Link } from '@tanstack/react-router'
import { navigationMessages } from '@/client/lib/messages'
import { itemsOf } from '@/client/lib/navigation'
import { runtimeConfig } from '@/client/lib/runtime-config'
import { layoutMessages } from './messages'

export function Footer() {
  const t = useStore(layoutMessages)
  const pages = useStore(navigationMessages)
  return (
    <footer className="border-t">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
        <p>
          {t.rights({ year: String(new Date().getFullYear()) })} ·{' '}
          {t.version({ version: runtimeConfig().version })}
        </p>
        <nav aria-label={t.demosNavigation} className="flex flex-wrap gap-x-4 gap-y-2">
          {itemsOf('demos').map((item) => (
            <Link key={item.to} to={item.to} className="underline-offset-4 hover:text-foreground hover:underline">
              {pages[item.label]}
            </Link>
          ))}
        </nav>
      </div>
    </footer>
  )
}
