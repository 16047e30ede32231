import { useStore } from '@nanostores/react'
import { Link } from '@tanstack/react-router'
import type { Ref } from 'react'
import type { NewWordsSource, PracticeGrade, PracticeQueue } from '@/shared/practice'
import { newWordsNote } from '@/client/api/practice-progress'
import { Button, buttonClass } from '@/client/components/ui/button'
import { formatDateTime } from '@/client/lib/format-time'
import { locale } from '@/client/lib/i18n'
import { gradeNames } from './card-view'
import { practiceMessages } from './messages'
import { gradesGiven } from './session'

/**
 * The end of a session: what was reviewed, and what comes next (cards due again, some later today,
 * none: why no new word comes).
 */
export function SessionEnd({
  headingRef,
  dueAgain,
  laterToday,
  newWords,
  counts,
  onAgain,
}: {
  headingRef: Ref<HTMLHeadingElement>
  dueAgain: number
  laterToday: PracticeQueue['laterToday'] | undefined
  newWords: NewWordsSource | undefined
  counts: Record<PracticeGrade, number>
  onAgain: () => void
}) {
  const t = useStore(practiceMessages)
  const lang = useStore(locale)
  const given = gradesGiven(counts)
  const status = newWords?.status
  // Nothing was ever there to practise: no level, or no word at it in the language learnt.
  const nothingYet = given === 0 && dueAgain === 0 && (status === 'noLevel' || status === 'noWords')
  // Nothing due now, but some cards come back before the day ends.
  const later = dueAgain === 0 && laterToday?.next ? { count: laterToday.count, next: laterToday.next } : null
  const lead =
    dueAgain > 0
      ? t.sessionDoneLead({ count: dueAgain })
      : later
        ? t.laterTodayLead({ count: later.count, time: formatDateTime(lang, Date.parse(later.next), { timeStyle: 'short' }) })
        : status === 'noLevel'
          ? t.noLevel
          : ((newWords && newWordsNote(newWords, t, lang)) ?? t.allDoneLead)
  return (
    <section aria-labelledby="practice-done" className="mt-6 rounded-xl border bg-card p-6 sm:p-8">
      <h2 id="practice-done" ref={headingRef} tabIndex={-1} className="text-2xl font-semibold outline-hidden">
        {dueAgain > 0 ? t.sessionDone : later ? t.doneForNow : nothingYet ? t.nothingYet : t.allDone}
      </h2>
      <p className="mt-2 text-muted-foreground">{lead}</p>
      {given > 0 && (
        <div className="mt-6">
          <h3 className="font-medium">
            {t.summary}: {t.reviewed({ count: given })}
          </h3>
          <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
            {([1, 2, 3, 4] as const).map((value) => (
              <div key={value} className="rounded-lg border p-3 text-center">
                <dt className="text-sm text-muted-foreground">{t[gradeNames[value]]}</dt>
                <dd className="text-2xl font-semibold tabular-nums">{counts[value]}</dd>
              </div>
            ))}
          </dl>
        </div>
      )}
      <div className="mt-6 flex flex-wrap gap-3">
        {dueAgain > 0 && <Button onClick={onAgain}>{t.practiseAgain}</Button>}
        <Link to="/dashboard" className={buttonClass({ variant: dueAgain > 0 ? 'outline' : 'primary' })}>
          {t.backToDashboard}
        </Link>
      </div>
    </section>
  )
}
