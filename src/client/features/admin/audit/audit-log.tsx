import { useStore } from '@nanostores/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link, getRouteApi } from '@tanstack/react-router'
import { uiMessages } from '@/client/components/ui/messages'
import { Skeleton } from '@/client/components/ui/skeleton'
import { cn } from '@/client/lib/cn'
import { format } from '@/client/lib/i18n'
import { EmptyState } from '@/client/components/ui/empty-state'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { PageHeading } from '@/client/components/ui/page-heading'
import { usePageTitle } from '@/client/lib/page-title'
import { Pagination } from '@/client/components/data-table/pagination'
import { auditQuery } from './api'
import { actionOf, detailOf, targetOf } from './describe-entry'
import { auditMessages } from './messages'

const route = getRouteApi('/admin/recent-changes')

/** The account a change was made to: a link to the person's page while the account exists. */
function Target({ target }: { target: { text: string; userId?: string } }) {
  if (!target.userId) return <>{target.text}</>
  return (
    <Link
      to="/admin/users/$userId"
      params={{ userId: target.userId }}
      className="text-primary-text underline underline-offset-4 hover:no-underline"
    >
      {target.text}
    </Link>
  )
}

/**
 * `/admin/recent-changes` (admin): the audit log of administrative changes and of changes to how
 * people sign in, newest first, a page at a time (the page in the URL).
 */
export function RecentChangesPage() {
  const t = useStore(auditMessages)
  const ui = useStore(uiMessages)
  const formats = useStore(format)
  const { page } = route.useSearch()
  const navigate = route.useNavigate()
  const query = useQuery({ ...auditQuery(page), placeholderData: keepPreviousData })
  const data = query.data
  usePageTitle(t.title)
  const rows = (data?.items ?? []).map((entry) => ({
    id: entry.id,
    at: entry.at,
    time: formats.time(new Date(entry.at), { dateStyle: 'short', timeStyle: 'short' }),
    // No actor: the command line, or a role the server granted itself (ADMIN_EMAILS).
    who: entry.actorEmail ?? entry.actorId ?? t.system,
    action: actionOf(entry, t),
    target: targetOf(entry, t),
    changes: detailOf(entry, t),
  }))

  return (
    <div className="grid grid-cols-1 gap-8">
      <header>
        <PageHeading className="text-3xl font-bold tracking-tight sm:text-4xl">{t.title}</PageHeading>
        <p className="mt-3 text-lg text-muted-foreground">{t.lead}</p>
      </header>
      <div className="min-w-0 rounded-xl border bg-card p-4 sm:p-6">
        {query.isPending && (
          <div role="status" aria-label={t.loading} className="grid gap-2">
            {[0, 1, 2].map((row) => (
              <Skeleton key={row} className="h-8 w-full" />
            ))}
          </div>
        )}
        {query.isError && !data && <ErrorAlert error={query.error} onRetry={query.refetch} />}
        {data && data.total === 0 && <EmptyState title={ui.noData} hint={t.emptyHint} />}
        {data && data.total > 0 && (
          <div className="grid grid-cols-1 gap-4">
            {/* A table where there is room for one, else a list. */}
            <table className={cn('hidden w-full text-sm sm:table', query.isPlaceholderData && 'opacity-60')}>
              <caption className="sr-only">{t.title}</caption>
              <thead className="border-b text-left text-muted-foreground">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    {t.time}
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    {t.who}
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    {t.action}
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    {t.target}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {rows.map((row) => (
                  <tr key={row.id} className="align-top">
                    <td className="py-2 pr-3 whitespace-nowrap">
                      <time dateTime={row.at}>{row.time}</time>
                    </td>
                    <td className="py-2 pr-3 break-all">{row.who}</td>
                    <td className="py-2 pr-3">{row.action}</td>
                    <td className="py-2 break-words">
                      <Target target={row.target} />
                      {row.changes && <span className="block text-xs text-muted-foreground">{row.changes}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <ul className={cn('divide-y text-sm sm:hidden', query.isPlaceholderData && 'opacity-60')}>
              {rows.map((row) => (
                <li key={row.id} className="grid gap-0.5 py-2">
                  <p className="font-medium break-words">
                    {row.action}: <Target target={row.target} />
                  </p>
                  {row.changes && <p className="text-xs text-muted-foreground">{row.changes}</p>}
                  <p className="text-muted-foreground break-all">
                    <time dateTime={row.at}>{row.time}</time> · {row.who}
                  </p>
                </li>
              ))}
            </ul>
            <Pagination
              label={t.pages}
              page={page}
              pageSize={data.pageSize}
              total={data.total}
              onPage={(target) => void navigate({ search: (prev) => ({ ...prev, page: target }), resetScroll: false })}
            />
          </div>
        )}
      </div>
    </div>
  )
}
