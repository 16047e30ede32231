import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { Alert } from '@/client/components/ui/alert'
import { Avatar } from '@/client/components/ui/avatar'
import { Button } from '@/client/components/ui/button'
import { PageHeading } from '@/client/components/ui/page-heading'
import { Skeleton } from '@/client/components/ui/skeleton'
import { orderedLevelsQuery } from '@/client/api/levels'
import { type SessionUser, currentUser } from '@/client/lib/auth'
import { errorMessage } from '@/client/lib/error-message'
import { format } from '@/client/lib/i18n'
import { apiErrorMessages } from '@/client/lib/messages'
import { usePageTitle } from '@/client/lib/page-title'
import { useSyncTimeZone } from '@/client/api/practice-progress'
import { learnerProfileQuery } from '@/client/api/profile'
import { dashboardMessages } from './messages'
import { ProfileForm } from './profile-form'
import { Progress } from './progress'
import { SkillsCard } from './skills-card'
import { TodayCard } from './today-card'

/** `/dashboard` (auth guard): greeting, learning profile, progress, the level's meaning, account. */
export function DashboardPage() {
  const t = useStore(dashboardMessages)
  const user = useStore(currentUser)
  usePageTitle(t.title)
  useSyncTimeZone()
  if (!user) return null
  return (
    <article className="mx-auto max-w-5xl">
      <div className="flex items-center gap-4">
        <Avatar src={user.image} alt={user.name} size="3xl" />
        <div>
          <PageHeading className="text-3xl font-bold tracking-tight">{t.greeting({ name: user.name })}</PageHeading>
          <p className="mt-1 text-muted-foreground">{t.lead}</p>
        </div>
      </div>
      <LearningProfile user={user} />
    </article>
  )
}

function LearningProfile({ user }: { user: SessionUser }) {
  const t = useStore(dashboardMessages)
  const errors = useStore(apiErrorMessages)
  const formats = useStore(format)
  const profile = useQuery(learnerProfileQuery())
  const levels = useQuery(orderedLevelsQuery())

  if (profile.isError || levels.isError) {
    return (
      <Alert variant="error" className="mt-8 flex flex-wrap items-center justify-between gap-3">
        <span>
          {t.loadError} {errorMessage(profile.error ?? levels.error, errors)}
        </span>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void Promise.all([profile.refetch(), levels.refetch()])}
        >
          {t.retry}
        </Button>
      </Alert>
    )
  }
  if (!profile.data || !levels.data) {
    return (
      <div role="status" aria-label={t.profileTitle} className="mt-8 grid gap-6 lg:grid-cols-3">
        <Skeleton className="h-80 rounded-xl lg:col-span-2" />
        <Skeleton className="h-80 rounded-xl" />
      </div>
    )
  }
  const current = levels.data.find((level) => level.id === profile.data.currentLevelId)

  return (
    <div className="mt-8 grid gap-6 lg:grid-cols-3">
      <div className="grid gap-6 lg:col-span-2">
        <Card title={t.todayTitle}>
          <TodayCard />
        </Card>
        <Card title={t.profileTitle}>
          {/* Keyed by the saved profile: a save elsewhere (another tab) resets the form. */}
          <ProfileForm key={profile.data.updatedAt ?? 'new'} profile={profile.data} levels={levels.data} />
          {profile.data.updatedAt && (
            <p className="mt-4 text-xs text-muted-foreground">
              {t.lastSaved({
                time: formats.time(new Date(profile.data.updatedAt), { dateStyle: 'medium', timeStyle: 'short' }),
              })}
            </p>
          )}
        </Card>
        <Card title={t.progressTitle}>
          <Progress
            levels={levels.data}
            currentId={profile.data.currentLevelId}
            targetId={profile.data.targetLevelId}
          />
        </Card>
      </div>
      <div className="grid content-start gap-6">
        <Card title={t.currentTitle}>
          {current ? (
            <>
              <p className="flex items-baseline gap-2">
                <span className="rounded-md bg-primary px-2 py-0.5 font-mono text-sm font-bold text-primary-foreground">
                  {current.code}
                </span>
                <span className="font-semibold">{current.name}</span>
              </p>
              {current.description && <p className="mt-3 text-sm text-muted-foreground">{current.description}</p>}
            </>
          ) : (
            <p className="text-sm text-muted-foreground">{t.currentNone}</p>
          )}
        </Card>
        <Card title={t.skillsTitle}>
          <SkillsCard />
        </Card>
        <Card title={t.accountTitle}>
          <ul className="grid gap-2 text-sm">
            <Status ok={user.emailVerified ?? false} label={user.emailVerified ? t.emailVerified : t.emailNotVerified} />
            <Status ok={user.twoFactorEnabled ?? false} label={user.twoFactorEnabled ? t.mfaOn : t.mfaOff} />
          </ul>
          <Link to="/account" className="mt-4 inline-block text-sm font-medium text-primary-text underline-offset-4 hover:underline">
            {t.manageAccount}
          </Link>
        </Card>
      </div>
    </div>
  )
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-xl border bg-card p-6">
      <h2 className="text-lg font-semibold">{title}</h2>
      <div className="mt-4">{children}</div>
    </section>
  )
}

function Status({ ok, label }: { ok: boolean; label: string }) {
  return (
    <li className="flex items-center gap-2">
      <span aria-hidden="true" className={ok ? 'text-success' : 'text-warning'}>
        {ok ? '✓' : '!'}
      </span>
      {label}
    </li>
  )
}
