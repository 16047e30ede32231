import { useStore } from '@nanostores/react'
import { PageHeading } from '@/client/components/ui/page-heading'
import { usePageTitle } from '@/client/lib/page-title'
import { peopleAdminMessages } from './messages'
import { PeopleTable } from './people-table'

/** `/admin/users` (admin): everyone with an account, searched, filtered, sorted and paged in the URL. */
export function PeoplePage() {
  const t = useStore(peopleAdminMessages)
  usePageTitle(t.title)
  return (
    <div className="grid grid-cols-1 gap-8">
      <header className="min-w-0">
        <PageHeading className="text-3xl font-bold tracking-tight sm:text-4xl">{t.title}</PageHeading>
        <p className="mt-3 text-lg text-muted-foreground">{t.lead}</p>
      </header>
      <PeopleTable />
    </div>
  )
}
