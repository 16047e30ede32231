import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import { assessmentQuery } from '@/client/api/assessment'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { PageHeading } from '@/client/components/ui/page-heading'
import { Skeleton } from '@/client/components/ui/skeleton'
import { errorMessage } from '@/client/lib/error-message'
import { locale } from '@/client/lib/i18n'
import { apiErrorMessages } from '@/client/lib/messages'
import { usePageTitle } from '@/client/lib/page-title'
import { toast } from '@/client/lib/toast'
import { canDoSetQuery, useStartAssessment } from './api'
import { assessmentMessages } from './messages'
import { Questions } from './questions'
import { Result } from './result'

/**
 * `/assessment` (auth guard): the intro with "Start self-assessment", the questions of the
 * assessment in progress (resumed where the learner left), or the latest result. `again` (the
 * dashboard's "Take it again"): the intro, even when there is a result.
 */
export function AssessmentPage({ again }: { again: boolean }) {
  const t = useStore(assessmentMessages)
  const errors = useStore(apiErrorMessages)
  const lang = useStore(locale)
  const state = useQuery(assessmentQuery())
  const set = useQuery(canDoSetQuery(lang))
  const resultShown = Boolean(state.data?.latest && !state.data.inProgress && !again)
  usePageTitle(resultShown ? t.resultTitle : t.title)

  if (state.isError || set.isError) {
    return (
      <article className="mx-auto max-w-3xl">
        <PageHeading className="text-3xl font-bold tracking-tight">{t.title}</PageHeading>
        <Alert variant="error" className="mt-6 flex flex-wrap items-center justify-between gap-3">
          <span>
            {t.loadError} {errorMessage(state.error ?? set.error, errors)}
          </span>
          <Button variant="outline" size="sm" onClick={() => void Promise.all([state.refetch(), set.refetch()])}>
            {t.retry}
          </Button>
        </Alert>
      </article>
    )
  }
  if (!state.data || !set.data) {
    return (
      <article className="mx-auto max-w-3xl" aria-busy="true">
        <PageHeading className="text-3xl font-bold tracking-tight">{t.title}</PageHeading>
        <div role="status" aria-label={t.title} className="mt-6 grid gap-4">
          <Skeleton className="h-6 w-40" />
          <Skeleton className="h-48 rounded-xl" />
        </div>
      </article>
    )
  }
  const { inProgress, latest } = state.data
  if (inProgress) return <Questions progress={inProgress} set={set.data} />
  if (latest && !again) return <Result result={latest} levels={set.data.levels} />
  return <Intro empty={set.data.items.length === 0} />
}

function Intro({ empty }: { empty: boolean }) {
  const t = useStore(assessmentMessages)
  const errors = useStore(apiErrorMessages)
  const start = useStartAssessment((error) => toast({ title: errorMessage(error, errors), variant: 'error' }))
  return (
    <article className="mx-auto max-w-3xl">
      <PageHeading className="text-3xl font-bold tracking-tight">{t.title}</PageHeading>
      <p className="mt-2 text-muted-foreground">{t.lead}</p>
      <section aria-labelledby="assessment-how" className="mt-6 rounded-xl border bg-card p-4 sm:p-6">
        <h2 id="assessment-how" className="text-lg font-semibold">
          {t.howTitle}
        </h2>
        <ul className="mt-3 grid list-disc gap-2 pl-5 text-sm">
          <li>{t.howSkills}</li>
          <li>{t.howLevels}</li>
          <li>{t.howKeys}</li>
        </ul>
        {empty ? (
          <Alert variant="info" className="mt-6">
            {t.noStatements}
          </Alert>
        ) : (
          <Button className="mt-6" disabled={start.isPending} onClick={() => start.mutate()}>
            {start.isPending ? t.starting : t.start}
          </Button>
        )}
      </section>
    </article>
  )
}
