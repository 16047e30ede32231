import { useStore } from '@nanostores/react'
import { type QueryClient, useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { type ReactNode, useEffect, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { PageHeading } from '@/client/components/ui/page-heading'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiRequestError, HttpError } from '@/client/lib/http-error'
import { currentUser } from '@/client/lib/auth'
import { format } from '@/client/lib/i18n'
import { onLive } from '@/client/lib/live'
import { usePageTitle } from '@/client/lib/page-title'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { Card } from '@/client/components/ui/card'
import { levelQuery } from './api'
import { useLevelsCache } from './level-cache'
import { type DeletableLevel, DeleteLevelDialog } from './delete-level-dialog'
import { LevelForm } from './level-form'
import { LevelsBreadcrumb } from './levels-breadcrumb'
import { levelFormMessages } from './messages'

function levelNotFound(): HttpError {
  return new HttpError(404, 'Language level not found', { key: 'levelNotFound' })
}

const isNotFound = (error: unknown) => error instanceof ApiRequestError && error.status === 404

/** The route's loader: the level before the page shows, or the 404 screen when there is none. */
export async function loadLevel(queryClient: QueryClient, id: number): Promise<void> {
  try {
    await queryClient.ensureQueryData(levelQuery(id))
  } catch (error) {
    throw isNotFound(error) ? levelNotFound() : error
  }
}

/**
 * The name of whoever else changes level `id` while this page is open (its live audit events), to
 * say who did before a save is refused.
 */
function useChangedBy(id: number): string | null {
  const [changedBy, setChangedBy] = useState<string | null>(null)
  useEffect(
    () =>
      onLive('audit', (entry) => {
        const mine = entry.actorId !== null && entry.actorId === currentUser.get()?.id
        if (entry.targetType === 'language_level' && entry.targetId === String(id) && !mine) setChangedBy(entry.actorName)
      }),
    [id],
  )
  return changedBy
}

/**
 * `/admin/language-levels/{id}` (admin): one level, its details, the edit form, `words` (its
 * "Words" section, composed by the route) and deletion.
 */
export function LevelPage({ id, words }: { id: number; words?: ReactNode }) {
  const t = useStore(levelFormMessages)
  const formats = useStore(format)
  const levels = useLevelsCache()
  const navigate = useNavigate()
  const query = useQuery(levelQuery(id))
  const [deleting, setDeleting] = useState<DeletableLevel | null>(null)
  const changedBy = useChangedBy(id)
  const level = query.data
  usePageTitle(level ? `${level.code} · ${level.name}` : undefined)

  // Deleted meanwhile (elsewhere), and read again: the page no longer exists.
  if (isNotFound(query.error)) throw levelNotFound()

  const onDeleted = async () => {
    setDeleting(null)
    await navigate({ to: '/admin/language-levels' })
    levels.forget(id)
    void levels.refresh()
  }

  const when = (iso: string) => formats.time(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' })

  return (
    <article className="mx-auto grid max-w-3xl gap-6">
      <LevelsBreadcrumb current={level?.code ?? '…'} />
      {!level && query.isError && (
        <ErrorAlert error={query.error} onRetry={query.refetch} />
      )}
      {!level && query.isPending && <Skeleton className="h-64 w-full" />}
      {level && (
        <>
          <PageHeading className="text-3xl font-bold tracking-tight break-words sm:text-4xl">
            {/* An inline block, with the space inside: the heading's focus underline passes it by. */}
            <span className="mr-3 inline-block rounded-md border border-primary px-2 py-0.5 align-middle font-mono text-xl font-semibold break-all text-primary-text sm:text-2xl">
              {level.code}{' '}
            </span>
            {level.name}
          </PageHeading>
          <Card title={t.detailsTitle}>
            <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
              <dt className="text-muted-foreground">{t.position}</dt>
              <dd>{formats.number(level.position + 1)}</dd>
              <dt className="text-muted-foreground">{t.createdAt}</dt>
              <dd>
                <time dateTime={level.createdAt}>{when(level.createdAt)}</time>
              </dd>
              <dt className="text-muted-foreground">{t.updatedAt}</dt>
              <dd>
                <time dateTime={level.updatedAt}>{when(level.updatedAt)}</time>
              </dd>
            </dl>
          </Card>
          <Card title={t.editTitle}>
            <LevelForm level={level} changedBy={changedBy} />
          </Card>
          {words}
          <Card
            title={t.deleteTitle}
            lead={t.deleteLead}
            danger
            actions={
              <Button variant="destructive" onClick={() => setDeleting(level)}>
                {t.delete}
              </Button>
            }
          />
          <DeleteLevelDialog level={deleting} onClose={() => setDeleting(null)} onDeleted={onDeleted} />
        </>
      )}
    </article>
  )
}
