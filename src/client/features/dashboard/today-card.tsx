import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId } from 'react'
import { assessmentQuery } from '@/client/api/assessment'
import { newWordsNote, practiceTodayQuery } from '@/client/api/practice-progress'
import { buttonClass } from '@/client/components/ui/button'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { Skeleton } from '@/client/components/ui/skeleton'
import { format, locale } from '@/client/lib/i18n'
import { dashboardMessages } from './messages'
import { PracticeCalendar } from './practice-calendar'


/**
 * "Today": what is due and new, the reviews done towards the daily goal, "Practise now" (or "All
 * done for today"), why no new word comes when the learner can change it (no current level — with
 * the self-assessment's level when there is one —, none at it in the language learnt, all of them
 * started), the streak and the calendar.
 */
export function TodayCard() {
  const t = useStore(dashboardMessages)
  const formats = useStore(format)
  const lang = useStore(locale)
  const today = useQuery(practiceTodayQuery())
  // The self-assessment's overall level, when /assessment shows that result (none under way).
  const assessment = useQuery(assessmentQuery()).data
  const assessed = assessment && !assessment.inProgress ? (assessment.latest?.overall ?? null) : null
  const doneId = useId()
  if (today.isError) {
    return <ErrorAlert error={today.error} onRetry={() => today.refetch()} />
  }
  if (!today.data) return <Skeleton className="h-72 rounded-lg" />
  const { dueToday, newToday, newWords, done, goal, goalMet, streak, longest, calendar } = today.data
  const number = (value: number) => formats.number(value)
  const share = Math.min(1, done / Math.max(goal, 1))
  const reviewsText = t.reviewsDone({ done: number(done), goal })
  const somethingLeft = dueToday > 0 || newToday > 0
  const note = newWordsNote(newWords, t, lang)
  // Not "All done" when there was never anything to do: no level, or no word at it in the language.
  const nothingYet = done === 0 && (newWords.status === 'noLevel' || newWords.status === 'noWords')

  return (
    <div className="grid gap-6">
      <div className="grid gap-6 sm:grid-cols-[1fr_auto]">
        <div className="grid content-start gap-3">
          <p className="flex flex-wrap gap-x-6 gap-y-1 font-medium">
            <span>{t.dueToday({ n: number(dueToday) })}</span>
            <span>{t.newToday({ n: number(newToday) })}</span>
          </p>
          <div>
            <p id={doneId} className="text-sm text-muted-foreground">
              {reviewsText}
            </p>
            <div
              role="progressbar"
              aria-labelledby={doneId}
              aria-valuemin={0}
              aria-valuemax={goal}
              aria-valuenow={Math.min(done, goal)}
              aria-valuetext={reviewsText}
              className="mt-1.5 h-2.5 w-full overflow-hidden rounded-full bg-muted-foreground/20"
            >
              <div
                className={goalMet ? 'h-full rounded-full bg-success' : 'h-full rounded-full bg-primary'}
                style={{ width: `${share * 100}%` }}
              />
            </div>
            {goalMet && <p className="mt-1.5 text-sm text-success">{t.goalMet}</p>}
          </div>
          {somethingLeft ? (
            <div>
              <Link to="/practice" className={buttonClass()}>
                {t.practiseNow}
              </Link>
            </div>
          ) : (
            !nothingYet && <p className="font-semibold">{t.allDone}</p>
          )}
          {note && <p className="text-sm">{note}</p>}
          {newWords.status === 'noLevel' && (
            <div>
              <p className="text-sm">{assessed ? t.noLevelAssessed({ level: assessed }) : t.noLevel}</p>
              <Link to="/assessment" className={buttonClass({ variant: 'outline', size: 'sm', className: 'mt-3' })}>
                {assessed ? t.seeResult : assessment?.inProgress ? t.continueAssessment : t.takeAssessment}
              </Link>
            </div>
          )}
        </div>
        <div className="grid content-start gap-1 text-sm sm:text-right">
          <p className="text-lg font-semibold">{t.streak({ n: streak })}</p>
          <p className="text-muted-foreground">{t.longest({ n: longest })}</p>
          <Link to="/progress" className="mt-1 justify-self-start font-medium text-primary-text underline-offset-4 hover:underline sm:justify-self-end">
            {t.seeProgress}
          </Link>
        </div>
      </div>
      <PracticeCalendar days={calendar} />
    </div>
  )
}
