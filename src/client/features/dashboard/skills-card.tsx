import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { assessmentQuery } from '@/client/api/assessment'
import { Alert } from '@/client/components/ui/alert'
import { buttonClass } from '@/client/components/ui/button'
import { Skeleton } from '@/client/components/ui/skeleton'
import { errorMessage } from '@/client/lib/error-message'
import { format } from '@/client/lib/i18n'
import { apiErrorMessages } from '@/client/lib/messages'
import { skillMessages } from '@/client/components/skills/messages'
import { dashboardMessages } from './messages'

/**
 * "Your skills": the latest self-assessment's level per skill and when it was taken, with "Take it
 * again"; "Take the self-assessment" when there is none yet; "Continue the self-assessment", with
 * when it was started and how far it went, while one is left half-way.
 */
export function SkillsCard() {
  const t = useStore(dashboardMessages)
  const words = useStore(skillMessages)
  const errors = useStore(apiErrorMessages)
  const formats = useStore(format)
  const state = useQuery(assessmentQuery())
  if (state.isError) {
    return (
      <Alert variant="error">
        {t.skillsError} {errorMessage(state.error, errors)}
      </Alert>
    )
  }
  if (!state.data) return <Skeleton className="h-40 rounded-lg" />
  const { latest, inProgress } = state.data
  // One left half-way is taken up where it stopped.
  const started = inProgress && (
    <p className="text-sm">
      {t.assessmentStarted({
        date: formats.time(new Date(inProgress.startedAt), { dateStyle: 'medium' }),
        done: inProgress.skills.filter((entry) => entry.finished).length,
        total: inProgress.skills.length,
      })}
    </p>
  )
  const go = (className: string) =>
    inProgress ? (
      <Link to="/assessment" className={buttonClass({ className })}>
        {t.continueAssessment}
      </Link>
    ) : latest ? (
      <Link to="/assessment" search={{ again: 1 }} className={buttonClass({ variant: 'outline', size: 'sm', className })}>
        {t.takeAgain}
      </Link>
    ) : (
      <Link to="/assessment" className={buttonClass({ className })}>
        {t.takeAssessment}
      </Link>
    )
  if (!latest) {
    return (
      <>
        {started || <p className="text-sm text-muted-foreground">{t.skillsNone}</p>}
        {go('mt-4')}
      </>
    )
  }
  const levelText = (code: string | null) => code ?? words.below({ level: latest.firstLevelCode ?? '' })
  return (
    <>
      <p className="font-semibold">{words.overall({ level: levelText(latest.overall) })}</p>
      <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1.5 text-sm">
        {latest.skills.map((entry) => (
          <div key={entry.skill} className="contents">
            <dt className="text-muted-foreground">{words[entry.skill]}</dt>
            <dd className="text-right font-mono font-semibold">{levelText(entry.levelCode)}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-muted-foreground">
        {words.taken({ date: formats.time(new Date(latest.takenAt), { dateStyle: 'medium' }) })}
      </p>
      {started && <div className="mt-4">{started}</div>}
      {go('mt-4')}
    </>
  )
}
