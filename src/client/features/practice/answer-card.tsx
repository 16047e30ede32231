import { useStore } from '@nanostores/react'
import { type FormEvent, type ReactNode, type Ref, useEffect, useRef, useState } from 'react'
import { type AnswerVerdict, checkAnswer, gapSentence } from '@/shared/answers'
import type { PracticeCard, PracticeGrade, PracticeWay } from '@/shared/practice'
import { Button } from '@/client/components/ui/button'
import { Input } from '@/client/components/ui/field'
import { cn } from '@/client/lib/cn'
import { locale } from '@/client/lib/i18n'
import { CardKind, Grades, cardClass, translationOf } from './card-view'
import { practiceMessages } from './messages'
import { speak, useVoice } from './speech'
import { keyIsElsewhere } from './use-practice-keys'

type Messages = ReturnType<typeof practiceMessages.get>

/** An answer checked: its verdict, the answer as expected, and the choice given ("Choose the answer"). */
interface Checked {
  verdict: AnswerVerdict
  grade: PracticeGrade
  answer: string
  chosen?: number
}

/** "Correct", "Almost — {answer}", "Not quite — {answer}". */
function resultText(t: Messages, { verdict, answer }: Pick<Checked, 'verdict' | 'answer'>): string {
  if (verdict === 'correct') return t.correct
  return verdict === 'almost' ? t.almost({ answer }) : t.wrong({ answer })
}

/**
 * A card practised in a way other than the flashcard (PRODUCT §13): the prompt — the translation
 * ("Type the answer", "Choose the answer"), the word spoken ("Listen and type"), the example with
 * the word left out ("Fill the gap") — and the answer typed (Enter checks) or chosen (1–4). Then
 * the result, "Next" (Enter: the grade the verdict gives) and "Change grade" (the four grades, 1–4).
 */
export function AnswerCard({
  card,
  way,
  revealed,
  onAnswered,
  onGrade,
  answerRef,
  firstChoiceRef,
  nextRef,
}: {
  card: PracticeCard
  way: Exclude<PracticeWay, 'flashcard'>
  /** Whether the answer is checked (false again after an undo brings the card back). */
  revealed: boolean
  onAnswered: (result: string) => void
  onGrade: (grade: PracticeGrade) => void
  answerRef: Ref<HTMLInputElement>
  firstChoiceRef: Ref<HTMLButtonElement>
  nextRef: Ref<HTMLButtonElement>
}) {
  const t = useStore(practiceMessages)
  const language = useStore(locale)
  const [typed, setTyped] = useState('')
  const [result, setResult] = useState<Checked | null>(null)
  const [changing, setChanging] = useState(false)
  // An undo puts the card back unanswered: what was typed and checked goes with it.
  const [wasRevealed, setWasRevealed] = useState(revealed)
  if (wasRevealed !== revealed) {
    setWasRevealed(revealed)
    if (!revealed) {
      setTyped('')
      setResult(null)
      setChanging(false)
    }
  }
  const checked = revealed ? result : null
  const gap = way === 'gap' && card.example ? gapSentence(card.example, card.text, card.language) : null
  const expected = gap?.answer ?? card.text

  const settle = (outcome: Checked) => {
    setResult(outcome)
    onAnswered(resultText(t, outcome))
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (checked) onGrade(checked.grade)
    else settle({ ...checkAnswer(typed, expected, card.language), answer: expected })
  }
  const choose = (index: number) => {
    if (checked || !card.choices) return
    const right = card.choices[index] === card.text
    settle({ verdict: right ? 'correct' : 'wrong', grade: right ? 3 : 1, answer: card.text, chosen: index })
  }

  // 1–4: a choice before the answer is checked, a grade once "Change grade" shows them.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (keyIsElsewhere(event) || !/^[1-4]$/.test(event.key)) return
      const n = Number(event.key)
      if (!checked && way === 'choose') {
        event.preventDefault()
        choose(n - 1)
      } else if (checked && changing) {
        event.preventDefault()
        onGrade(n as PracticeGrade)
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  })

  return (
    <section aria-labelledby="practice-word" className={cardClass}>
      <CardKind card={card} way={way} />
      <Prompt card={card} way={way} gap={gap} translation={translationOf(card, language)} />
      {way === 'choose' ? (
        <Choices card={card} checked={checked} onChoose={choose} firstChoiceRef={firstChoiceRef} />
      ) : (
        <form className="mt-6 grid gap-1.5" onSubmit={submit}>
          <label htmlFor="practice-answer" className="text-sm font-medium">
            {t.yourAnswer}
          </label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id="practice-answer"
              ref={answerRef}
              aria-describedby="practice-word"
              lang={card.language}
              value={typed}
              readOnly={checked !== null}
              autoComplete="off"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              className="h-11 min-w-0 text-base sm:flex-1"
              onChange={(event) => setTyped(event.target.value)}
            />
            {!checked && (
              <Button type="submit" size="lg" aria-keyshortcuts="Enter">
                {t.check}
              </Button>
            )}
          </div>
        </form>
      )}
      {checked && (
        <div className="mt-6 border-t pt-6">
          <p className={cn('text-lg font-semibold', checked.verdict === 'correct' ? 'text-success' : checked.verdict === 'wrong' && 'text-error')}>
            <Result t={t} checked={checked} lang={card.language} />
          </p>
          <div className="mt-4 flex flex-wrap gap-2">
            <Button ref={nextRef} size="lg" aria-keyshortcuts="Enter" onClick={() => onGrade(checked.grade)}>
              {t.next}
            </Button>
            <Button variant="outline" size="lg" aria-expanded={changing} onClick={() => setChanging(true)} disabled={changing}>
              {t.changeGrade}
            </Button>
          </div>
          {changing && <ChangeGrade card={card} grade={checked.grade} onGrade={onGrade} />}
        </div>
      )}
    </section>
  )
}

/** The result with the answer in its own language. */
function Result({ t, checked, lang }: { t: Messages; checked: Checked; lang: string }) {
  if (checked.verdict === 'correct') return t.correct
  const [before, after] = resultText(t, { verdict: checked.verdict, answer: '\u0000' }).split('\u0000')
  return (
    <>
      {before}
      <span lang={lang}>{checked.answer}</span>
      {after}
    </>
  )
}

/** The four grades, focus on the one the verdict gave. */
function ChangeGrade({ card, grade, onGrade }: { card: PracticeCard; grade: PracticeGrade; onGrade: (grade: PracticeGrade) => void }) {
  const focused = useRef<HTMLButtonElement>(null)
  useEffect(() => focused.current?.focus(), [])
  return <Grades card={card} onGrade={onGrade} gradeRef={focused} focused={grade} />
}

function Prompt({
  card,
  way,
  gap,
  translation,
}: {
  card: PracticeCard
  way: Exclude<PracticeWay, 'flashcard'>
  gap: ReturnType<typeof gapSentence>
  translation: string
}) {
  const t = useStore(practiceMessages)
  let lead: string | null = null
  let heading: ReactNode
  let after: ReactNode = null
  if (way === 'listen') {
    heading = t.listenPrompt
    after = <SayAgain card={card} />
  } else if (way === 'gap' && gap) {
    lead = t.gapPrompt
    heading = (
      <span lang={card.language}>
        {gap.before}
        <span aria-hidden="true" className="inline-block w-20 border-b-2 border-current align-baseline" />
        <span className="sr-only">…</span>
        {gap.after}
      </span>
    )
    after = <p className="mt-2 text-muted-foreground">{translation}</p>
  } else {
    lead = way === 'choose' ? t.choosePrompt : t.typePrompt
    heading = translation
  }
  return (
    <>
      {lead && <p className="mt-2 text-sm font-medium">{lead}</p>}
      <h2 id="practice-word" className={cn('mt-1 font-bold tracking-tight break-words', way === 'gap' || way === 'listen' ? 'text-2xl' : 'text-3xl')}>
        {heading}
      </h2>
      {after}
    </>
  )
}

/** "Listen and type": the word said when the card shows, and again on demand. */
function SayAgain({ card }: { card: PracticeCard }) {
  const t = useStore(practiceMessages)
  const { voice } = useVoice(card.language)
  useEffect(() => {
    if (voice) speak(card.text, voice)
  }, [card.text, voice])
  return (
    <Button variant="outline" size="sm" className="mt-3" disabled={!voice} onClick={() => voice && speak(card.text, voice)}>
      {t.listenAgain}
    </Button>
  )
}

function Choices({
  card,
  checked,
  onChoose,
  firstChoiceRef,
}: {
  card: PracticeCard
  checked: Checked | null
  onChoose: (index: number) => void
  firstChoiceRef: Ref<HTMLButtonElement>
}) {
  const t = useStore(practiceMessages)
  return (
    <div role="group" aria-label={t.choices} className="mt-6 grid gap-2 sm:grid-cols-2">
      {(card.choices ?? []).map((choice, index) => {
        const right = checked && choice === card.text
        const wrong = checked?.chosen === index && !right
        // `!`: the outline variant's own border colour comes later in the stylesheet than `border-error`.
        return (
          <Button
            key={choice}
            ref={index === 0 ? firstChoiceRef : undefined}
            variant="outline"
            size="lg"
            aria-keyshortcuts={String(index + 1)}
            aria-disabled={checked !== null}
            className={cn('h-auto justify-start gap-3 py-3 text-left', right && 'border-2 border-success!', wrong && 'border-2 border-error!')}
            onClick={() => onChoose(index)}
          >
            <span aria-hidden="true" className="text-sm text-muted-foreground">
              {index + 1}
            </span>
            <span lang={card.language} className="text-base font-medium break-words">
              {choice}
            </span>
            {(right || wrong) && (
              <span aria-hidden="true" className={cn('ms-auto font-bold', right ? 'text-success' : 'text-error')}>
                {right ? '✓' : '✗'}
              </span>
            )}
          </Button>
        )
      })}
    </div>
  )
}
