import { useStore } from '@nanostores/react'
import { type KeyboardEvent as ReactKeyboardEvent, useEffect, useMemo, useRef, useState } from 'react'
import { type Answer, type AssessmentProgress, type CanDoSet, SKILLS } from '@/shared/can-do'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { PageHeading } from '@/client/components/ui/page-heading'
import { Skeleton } from '@/client/components/ui/skeleton'
import { cn } from '@/client/lib/cn'
import { errorMessage } from '@/client/lib/error-message'
import { apiErrorMessages } from '@/client/lib/messages'
import { skillMessages } from '@/client/components/skills/messages'
import { useAnswerStatement, useRefreshTexts } from './api'
import { assessmentMessages } from './messages'
import { StartAgain } from './start-again'
import { currentIndex, nextRevisit, placeInLevel, stepsOf } from './steps'
import { emptySegment } from './segment'

const ANSWER_KEYS: Record<string, Answer> = { '1': 'can', '2': 'not-yet' }
const ORDER: readonly Answer[] = ['can', 'not-yet']

/** A key press meant for something else: a field, a dialog, or with a modifier (a shortcut). */
function elsewhere(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return true
  const target = event.target
  if (!(target instanceof Element)) return false
  return Boolean(target.closest('input, textarea, select, [contenteditable], [role="dialog"], [role="alertdialog"]'))
}

/**
 * The assessment in progress: one statement at a time of the skill asked now, answered "I can do
 * this" or "Not yet" (keys 1 and 2 anywhere on the page; arrow keys move between the two answers,
 * Enter or Space chooses), "Back" to the previous statement of the skill to change its answer.
 */
export function Questions({ progress, set }: { progress: AssessmentProgress; set: CanDoSet }) {
  const t = useStore(assessmentMessages)
  const skills = useStore(skillMessages)
  const errors = useStore(apiErrorMessages)
  const [revisiting, setRevisiting] = useState<number | null>(null)
  const steps = useMemo(() => stepsOf(progress, set), [progress, set])
  const index = currentIndex(steps, revisiting)
  const step = steps[index]
  const answer = useAnswerStatement((next, given: { index: number; statementId: number; answer: Answer }) =>
    setRevisiting(nextRevisit(steps, given.index, stepsOf(next, set))),
  )
  const choose = (given: Answer) => {
    if (answer.isPending || !step) return
    answer.mutate({ index, statementId: step.statementId, answer: given })
  }
  // Keys 1 and 2 answer from anywhere on the page (listened to again with each new `choose`).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const given = ANSWER_KEYS[event.key]
      if (!given || elsewhere(event)) return
      event.preventDefault()
      choose(given)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  })

  // A statement the texts do not have yet (added since they were read): read them again.
  const missingText = step !== undefined && step.text === undefined
  const refreshTexts = useRefreshTexts()
  useEffect(() => {
    if (missingText) refreshTexts(set.lang)
  }, [missingText, refreshTexts, set.lang])

  const skillIndex = progress.asking ? SKILLS.indexOf(progress.asking.skill) : 0
  const skill = SKILLS[skillIndex] ?? SKILLS[0]
  const levelCode = set.levels.find((level) => level.id === step?.levelId)?.code ?? ''
  const place = placeInLevel(steps, index)

  return (
    <article className="mx-auto max-w-3xl">
      <PageHeading className="text-3xl font-bold tracking-tight">{t.title}</PageHeading>
      <ol aria-label={t.skillsProgress} className="mt-6 grid grid-cols-5 gap-1.5">
        {progress.skills.map((entry, at) => (
          <li key={entry.skill}>
            <span
              aria-hidden="true"
              className={cn(
                'block h-2 rounded-full',
                entry.finished ? 'bg-primary' : at === skillIndex ? 'bg-secondary' : emptySegment,
              )}
            />
            <span className="sr-only">
              {(entry.finished ? t.skillDone : at === skillIndex ? t.skillNow : t.skillNext)({ skill: skills[entry.skill] })}
            </span>
          </li>
        ))}
      </ol>
      <section aria-labelledby="assessment-skill" className="mt-6 rounded-xl border bg-card p-4 sm:p-6">
        <p className="text-sm font-medium text-muted-foreground">{t.skillOf({ n: skillIndex + 1, count: SKILLS.length })}</p>
        <h2 id="assessment-skill" className="text-2xl font-semibold">
          {skills[skill]}
        </h2>
        {/* Always there, so that a screen reader hears each new statement as it comes. */}
        <p aria-live="polite" className="sr-only">
          {step?.text !== undefined &&
            t.announce({ n: skillIndex + 1, count: SKILLS.length, skill: skills[skill], level: levelCode, text: step.text })}
        </p>
        {step?.text === undefined ? (
          <Skeleton className="mt-6 h-24 rounded-lg" />
        ) : (
          <>
            <p className="mt-4 text-sm text-muted-foreground">
              {t.statementOf({ n: place.n, count: place.count, level: levelCode })}
            </p>
            <blockquote className="mt-2 border-l-4 border-primary pl-4 text-lg font-medium wrap-break-word">
              {step.text}
            </blockquote>
            <AnswerButtons
              given={step.answer}
              onChoose={choose}
              labels={{ group: t.answers, can: t.can, notYet: t.notYet }}
            />
          </>
        )}
        {answer.isError && (
          <Alert variant="error" className="mt-4">
            {errorMessage(answer.error, errors)}
          </Alert>
        )}
        <p className="mt-4 text-xs text-muted-foreground">{t.keys}</p>
        <div className="mt-6 flex flex-wrap justify-between gap-3 border-t pt-4">
          {/* aria-disabled, not disabled: pressed down to the first statement, it keeps focus. */}
          <Button
            variant="ghost"
            aria-disabled={index <= 0}
            className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
            onClick={() => {
              const previous = steps[index - 1]
              if (previous) setRevisiting(previous.statementId)
            }}
          >
            {t.back}
          </Button>
          <StartAgain midway />
        </div>
      </section>
    </article>
  )
}

/**
 * The two answers as one stop of the Tab order (a roving tab index): arrow keys move between
 * them, Enter or Space chooses. An earlier answer shows as pressed when the learner went back.
 */
function AnswerButtons({
  given,
  onChoose,
  labels,
}: {
  given: Answer | undefined
  onChoose: (answer: Answer) => void
  labels: { group: string; can: string; notYet: string }
}) {
  // Kept from one statement to the next (the buttons stay, so does focus on them).
  const [active, setActive] = useState(0)
  const buttons = useRef<(HTMLButtonElement | null)[]>([])
  // Started again from the result (its button gone with it, focus on nothing): focus to the first answer.
  useEffect(() => {
    if (document.activeElement === document.body) buttons.current[0]?.focus()
  }, [])
  const move = (event: ReactKeyboardEvent<HTMLButtonElement>) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key]
    const next =
      event.key === 'Home' ? 0 : event.key === 'End' ? ORDER.length - 1 : step && (active + step + ORDER.length) % ORDER.length
    if (next === undefined) return
    event.preventDefault()
    setActive(next)
    buttons.current[next]?.focus()
  }
  return (
    <div role="group" aria-label={labels.group} className="mt-6 grid gap-3 sm:grid-cols-2">
      {ORDER.map((answer, at) => (
        <Button
          key={answer}
          ref={(element) => {
            buttons.current[at] = element
          }}
          size="lg"
          variant={answer === 'can' ? 'primary' : 'outline'}
          tabIndex={at === active ? 0 : -1}
          aria-pressed={given === undefined ? undefined : given === answer}
          aria-keyshortcuts={String(at + 1)}
          onFocus={() => setActive(at)}
          onKeyDown={move}
          onClick={() => onChoose(answer)}
          // The answer given before (Back): marked, whichever it was.
          className="h-14 justify-between text-base aria-pressed:ring-2 aria-pressed:ring-foreground aria-pressed:ring-offset-2 aria-pressed:ring-offset-background"
        >
          <span>{answer === 'can' ? labels.can : labels.notYet}</span>
          <kbd aria-hidden="true" className="rounded border border-current/40 px-1.5 font-mono text-xs opacity-80">
            {at + 1}
          </kbd>
        </Button>
      ))}
    </div>
  )
}
