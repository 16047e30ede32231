import { useStore } from '@nanostores/react'
import { Avatar } from '../../components/ui/avatar'
import { currentUser } from '../../lib/auth'
import { usePageTitle } from '../../lib/page-title'
import { dashboardMessages } from './messages'

export function DashboardPage() {
  const t = useStore(dashboardMessages)
  const user = useStore(currentUser)
  usePageTitle(t.title)
  if (!user) return null
  return (
    <article className="mx-auto max-w-3xl">
      <div className="flex items-center gap-4">
        <Avatar src={user.image} alt={user.name} size="3xl" />
        <h1 className="text-3xl font-bold tracking-tight">{t.greeting({ name: user.name })}</h1>
      </div>
      <p className="mt-4 text-lg text-muted-foreground">{t.lead}</p>
    </article>
  )
}
