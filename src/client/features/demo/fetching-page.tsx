import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { format } from '@/client/lib/i18n'
import { Page } from '@/client/components/page'
import { serverTimeQuery } from './api'
import { fetchingMessages } from './messages'

export function FetchingPage() {
  const t = useStore(fetchingMessages)
  const formats = useStore(format)
  const [fail, setFail] = useState(false)
  const query = useQuery(serverTimeQuery(fail))
  const rows = query.data && [
    [t.databaseTime, formats.time(new Date(query.data.databaseTime), { dateStyle: 'medium', timeStyle: 'medium' })],
    [t.requestId, query.data.requestId],
  ]

  return (
    <Page title={t.title} lead={t.intro}>
      <div className="flex flex-wrap items-center gap-4">
        <Button onClick={() => void query.refetch()} disabled={query.isFetching}>
          {query.isFetching ? t.loading : t.refresh}
        </Button>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={fail}
            onChange={(event) => setFail(event.target.checked)}
            className="size-4 accent-(--primary)"
          />
          {t.simulateFailure}
        </label>
      </div>
      <div className="mt-6 min-h-48 rounded-xl border bg-card p-6" aria-busy={query.isPending}>
        {query.isPending && (
          <div className="grid gap-4" role="status" aria-label={t.loading}>
            {[0, 1, 2, 3].map((row) => (
              <Skeleton key={row} className="h-6 w-full" />
            ))}
          </div>
        )}
        {query.isError && (
          <ErrorAlert error={query.error} onRetry={query.refetch} />
        )}
        {rows && !query.isError && (
          <>
            <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
              {rows.map(([term, value]) => (
                <div key={term} className="contents">
                  <dt className="text-sm text-muted-foreground">{term}</dt>
                  <dd className="font-mono text-sm break-all">{value}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-4 text-xs text-muted-foreground">
              {t.fetchedAt({ time: formats.time(query.dataUpdatedAt, { timeStyle: 'medium' }) })}
            </p>
          </>
        )}
      </div>
    </Page>
  )
}
