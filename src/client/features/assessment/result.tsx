import { useStore } from '@nanostores/react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { type AssessmentResult, type CanDoSet, SKILLS } from '@/shared/can-do'
import { MISSED_IN_A_ROW, REACHED_PERCENT } from '@/shared/placement'
import { learnerProfileQuery, saveProfile, useProfileCache } from '@/client/api/profile'
import { Button } from '@/client/components/ui/button'
import { PageHeading } from '@/client/components/ui/page-heading'
import { cn } from '@/client/lib/cn'
import { errorMessage } from '@/client/lib/error-message'
import { format } from '@/client/lib/i18n'
import { apiErrorMessages } from '@/client/lib/messages'
import { skillMessages } from '@/client/components/skills/messages'
import { toast } from '@/client/lib/toast'
import { assessmentMessages } from './messages'
import { StartAgain } from './start-again'
import { overallReason, rankOf } from './steps'
import { emptySegment } from './segment'

type Levels = CanDoSet['levels']

/**
 * "Your result": a level per skill as bars on the levels' scale (with a table alternative), the
 * overall level and the rule that gave it, "Use as my current level" and "Start again".
 */
export function Result({ result, levels }: { result: AssessmentResult; levels: Levels }) {
  const t = useStore(assessmentMessages)
  const words = useStore(skillMessages)
  const formats = useStore(format)
  const levelText = (code: string | null) => code ?? words.below({ level: result.firstLevelCode ?? '' })
  const overall = levelText(result.overall)
  const reason = overallReason(result)
  return (
    <article className="mx-auto max-w-3xl">
      <PageHeading className="text-3xl font-bold tracking-tight">{t.resultTitle}</PageHeading>
      <p className="mt-2 text-muted-foreground">
        {t.resultLead} {words.taken({ date: formats.time(new Date(result.takenAt), { dateStyle: 'long' }) })}
      </p>

      <section aria-labelledby="assessment-overall" className="mt-6 rounded-xl border bg-card p-4 sm:p-6">
        <h2 id="assessment-overall" className="text-2xl font-bold">
          {words.overall({ level: overall })}
        </h2>
        <p className="mt-2 text-sm">
          {reason.kind === 'middle'
            ? t.middle({ level: overall })
            : result.overall === null
              ? t.sharedBelow({ count: reason.count, level: result.firstLevelCode ?? '' })
              : t.shared({ count: reason.count, level: overall })}
        </p>
        <p className="mt-2 text-sm text-muted-foreground">{t.rule}</p>
        <div className="mt-4 flex flex-wrap gap-3">
          <UseAsCurrent code={result.overall} levels={levels} />
          <StartAgain midway={false} />
        </div>
      </section>

      <section aria-labelledby="assessment-chart" className="mt-6 rounded-xl border bg-card p-4 sm:p-6">
        <h2 id="assessment-chart" className="text-lg font-semibold">
          {t.chartTitle}
        </h2>
        <Bars result={result} levels={levels} levelText={levelText} />
        <details className="mt-4">
          <summary className="cursor-pointer text-sm font-medium text-primary-text">{t.showTable}</summary>
          <table className="mt-3 w-full text-left text-sm">
            <caption className="sr-only">{t.tableCaption}</caption>
            <thead>
              <tr className="border-b">
                <th scope="col" className="py-2 pr-4 font-semibold">
                  {t.skill}
                </th>
                <th scope="col" className="py-2 font-semibold">
                  {t.level}
                </th>
              </tr>
            </thead>
            <tbody>
              {result.skills.map((entry) => (
                <tr key={entry.skill} className="border-b last:border-0">
                  <th scope="row" className="py-2 pr-4 font-normal">
                    {words[entry.skill]}
                  </th>
                  <td className="py-2 font-mono">{levelText(entry.levelCode)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
        <p className="mt-4 text-xs text-muted-foreground">
          {t.skillRule({ percent: REACHED_PERCENT, missed: MISSED_IN_A_ROW })}
        </p>
      </section>
    </article>
  )
}

/**
 * One bar per skill (SKILLS order), made of one segment per level in level order, filled up to the
 * skill's level: no inline widths (the CSP), and the scale reads the same on every row. The bars
 * are a picture of the text beside them, which the table repeats.
 */
function Bars({
  result,
  levels,
  levelText,
}: {
  result: AssessmentResult
  levels: Levels
  levelText: (code: string | null) => string
}) {
  const words = useStore(skillMessages)
  const bySkill = new Map(result.skills.map((entry) => [entry.skill, entry.levelCode]))
  return (
    <ul className="mt-4 grid gap-3">
      {SKILLS.map((skill) => {
        const code = bySkill.get(skill) ?? null
        const rank = rankOf(code, levels)
        return (
          <li key={skill} className="grid gap-1 sm:grid-cols-[11rem_1fr_5rem] sm:items-center sm:gap-3">
            <span className="text-sm font-medium">{words[skill]}</span>
            <span aria-hidden="true" className="flex gap-1">
              {levels.map((level, at) => (
                <span
                  key={level.id}
                  title={level.code}
                  className={cn('h-4 min-w-0 flex-1 rounded-sm', at <= rank ? 'bg-primary' : emptySegment)}
                />
              ))}
            </span>
            <span className="font-mono text-sm font-semibold sm:text-right">{levelText(code)}</span>
          </li>
        )
      })}
      <li aria-hidden="true" className="hidden sm:grid sm:grid-cols-[11rem_1fr_5rem] sm:gap-3">
        <span />
        <span className="flex gap-1">
          {levels.map((level) => (
            <span key={level.id} className="min-w-0 flex-1 text-center font-mono text-xs text-muted-foreground">
              {level.code}
            </span>
          ))}
        </span>
      </li>
    </ul>
  )
}

/**
 * Sets the profile's current level to the overall level (through the profile API the dashboard
 * uses); below the first level, to the first one ("Start with A1 as my current level"). A target
 * level below it is raised to it: the profile never has a target below the current level.
 */
function UseAsCurrent({ code, levels }: { code: string | null; levels: Levels }) {
  const t = useStore(assessmentMessages)
  const errors = useStore(apiErrorMessages)
  const cache = useProfileCache()
  const profile = useQuery(learnerProfileQuery())
  // Below the first level: the first one is where to start.
  const rank = code === null ? 0 : rankOf(code, levels)
  const level = levels[rank]
  const save = useMutation({
    mutationFn: async () => {
      const now = await cache.current()
      const target = levels.findIndex((entry) => entry.id === now.targetLevelId)
      return saveProfile({
        language: now.language,
        currentLevelId: level?.id ?? null,
        targetLevelId: target >= 0 && target < rank ? (level?.id ?? null) : now.targetLevelId,
      })
    },
    onSuccess: (saved) => {
      cache.saved(saved)
      toast({ title: assessmentMessages.get().levelUpdated, variant: 'success' })
    },
    onError: (error) => toast({ title: errorMessage(error, errors), variant: 'error' }),
  })
  if (!level) return code === null ? null : <p className="text-sm text-muted-foreground">{t.levelGone({ level: code })}</p>
  return (
    <>
      <Button onClick={() => !save.isPending && save.mutate()} aria-disabled={save.isPending}>
        {save.isPending ? t.saving : code === null ? t.startWith({ level: level.code }) : t.useLevel}
      </Button>
      {profile.data?.currentLevelId === level.id && (
        <p className="self-center text-sm text-muted-foreground">{t.alreadyCurrent}</p>
      )}
    </>
  )
}
