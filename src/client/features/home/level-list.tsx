import { useStore } from '@nanostores/react'
import { Await, CatchBoundary, useRouter } from '@tanstack/react-router'
import { Suspense } from 'react'
import type { LanguageLevel } from '@/shared/levels'
import { Button } from '@/client/components/ui/button'
import { EmptyState } from '@/client/components/ui/empty-state'
import { uiMessages } from '@/client/components/ui/messages'
import { Skeleton } from '@/client/components/ui/skeleton'
import { HttpError } from '@/client/lib/http-error'
import { homeMessages } from './messages'

/**
 * The levels from the API. The route's loader starts the request without waiting for it (the
 * page shows at once); this section waits, with a skeleton, "No data", or the error and a retry.
 * Reads are retried (3 attempts) before the error shows.
 */
export function LevelList({ levels }: { levels: Promise<LanguageLevel[]> }) {
  const t = useStore(homeMessages)
  const router = useRouter()
  return (
    <section aria-labelledby="levels-heading">
      <h2 id="levels-heading" className="text-center text-2xl font-semibold">
        {t.levelListTitle}
      </h2>
      <p className="mt-2 text-center text-muted-foreground">{t.levelListLead}</p>
      <div className="mt-8">
        <CatchBoundary
          getResetKey={() => 'levels'}
          onCatch={() => undefined}
          errorComponent={({ error, reset }) => (
            <LevelListError
              unavailable={error instanceof HttpError && error.status === 503}
              retry={() => {
                // A new request from the loader, then a new try of this section.
                void router.invalidate().then(reset)
              }}
            />
          )}
        >
          <Suspense fallback={<LevelListSkeleton label={t.levelListLoading} />}>
            <Await promise={levels}>{(items) => <LevelCards levels={items} />}</Await>
          </Suspense>
        </CatchBoundary>
      </div>
    </section>
  )
}

function LevelCards({ levels }: { levels: LanguageLevel[] }) {
  const t = useStore(homeMessages)
  const ui = useStore(uiMessages)
  if (levels.length === 0) {
    return <EmptyState title={ui.noData} hint={t.levelListEmptyHint} className="rounded-xl border bg-card p-6" />
  }
  return (
    <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {levels.map((level) => (
        <li key={level.id} className="rounded-xl border bg-card p-6">
          <p className="flex items-baseline gap-3">
            <span className="rounded-md bg-primary px-2 py-0.5 font-mono text-sm font-bold text-primary-foreground">
              {level.code}
            </span>
            <span className="font-semibold">{level.name}</span>
          </p>
          {level.description && (
            <p className="mt-3 text-sm text-muted-foreground">{level.description}</p>
          )}
        </li>
      ))}
    </ol>
  )
}

function LevelListSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {[0, 1, 2, 3, 4, 5].map((key) => (
        <Skeleton key={key} className="h-40 rounded-xl" />
      ))}
    </div>
  )
}

/**
 * Kept light (no error-message table on the first page): the failure and a retry. The server
 * being down (503) is said as such; anything else is most likely the connection.
 */
function LevelListError({ unavailable, retry }: { unavailable: boolean; retry: () => void }) {
  const t = useStore(homeMessages)
  return (
    <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-error bg-error-soft p-4 text-sm text-error">
      <span>{unavailable ? t.levelListUnavailable : t.levelListError}</span>
      <Button variant="outline" size="sm" onClick={retry}>
        {t.retry}
      </Button>
    </div>
  )
}
