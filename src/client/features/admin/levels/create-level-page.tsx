import { useStore } from '@nanostores/react'
import { useNavigate } from '@tanstack/react-router'
import { Alert } from '@/client/components/ui/alert'
import { PageHeading } from '@/client/components/ui/page-heading'
import { currentUser } from '@/client/lib/auth'
import { usePageTitle } from '@/client/lib/page-title'
import { LevelForm } from './level-form'
import { LevelsBreadcrumb } from './levels-breadcrumb'
import { levelFormMessages } from './messages'

/**
 * `/create` and `/admin/language-levels/create`: the level form; on success, the new level's page.
 * The second route is guarded by `auth` only (docs/product.md §3), so a signed-in learner may land
 * here: they see the form with a notice and cannot send it (the server refuses them anyway).
 */
export function CreateLevelPage() {
  const t = useStore(levelFormMessages)
  const user = useStore(currentUser)
  const navigate = useNavigate()
  const isAdmin = user?.role === 'admin'
  usePageTitle(t.newTitle)

  return (
    <article className="mx-auto grid max-w-3xl gap-6">
      {isAdmin && <LevelsBreadcrumb current={t.newTitle} />}
      <header>
        <PageHeading className="text-3xl font-bold tracking-tight sm:text-4xl">{t.newTitle}</PageHeading>
        <p className="mt-3 text-lg text-muted-foreground">{t.newLead}</p>
      </header>
      {!isAdmin && (
        <Alert variant="warning">
          <p className="font-semibold">{t.adminRequired}</p>
          <p className="mt-1 text-muted-foreground">{t.adminRequiredLead}</p>
        </Alert>
      )}
      <div className="rounded-xl border bg-card p-4 sm:p-6">
        <LevelForm
          disabled={!isAdmin}
          onSaved={(level) =>
            navigate({ to: '/admin/language-levels/$id', params: { id: String(level.id) } })
          }
        />
      </div>
    </article>
  )
}
