import { useStore } from '@nanostores/react'
import type { Ref } from 'react'
import type { PracticeCard, PracticeGrade, PracticeWay } from '@/shared/practice'
import { showsMore } from '@/shared/practice-ways'
import { CardField } from '@/client/components/card-field/card-field'
import { Button } from '@/client/components/ui/button'
import { cn } from '@/client/lib/cn'
import { locale } from '@/client/lib/i18n'
import { formatInterval } from './interval'
import { practiceMessages } from './messages'
import { ListenButton } from './speech'

export const gradeNames: Record<PracticeGrade, 'again' | 'hard' | 'good' | 'easy'> = {
  1: 'again',
  2: 'hard',
  3: 'good',
  4: 'easy',
}

const gradeLook: Record<PracticeGrade, string> = {
  1: 'border-error text-error',
  2: '',
  3: 'border-primary',
  4: 'border-success text-success',
}

/** The translation in the interface language (the English one is a short definition). */
export const translationOf = (card: PracticeCard, language: string) =>
  language === 'ru' ? card.translationRu : card.translationEn

/** The card's frame, whichever way it is practised in. */
export const cardClass = 'mt-6 rounded-xl border bg-card p-6 shadow-sm sm:p-8'

/** Each way's name among the messages. */
const wayNames: Record<PracticeWay, 'flashcard' | 'type' | 'choose' | 'listenAndType' | 'gap'> = {
  flashcard: 'flashcard',
  type: 'type',
  choose: 'choose',
  listen: 'listenAndType',
  gap: 'gap',
}

/** Above the card: a review or a new word, its part of speech, and the way it is practised in. */
export function CardKind({ card, way }: { card: PracticeCard; way: PracticeWay }) {
  const t = useStore(practiceMessages)
  const part = card.partOfSpeech ? t[card.partOfSpeech] : null
  return (
    <p className="text-sm text-muted-foreground">
      {card.kind === 'new' ? t.newWord : t.review}
      {part && ` · ${part}`}
      {` · ${t[wayNames[way]]}`}
    </p>
  )
}

/** The word on its card; revealed, its translation and example, and the four grades with their next interval. */
export function CardView({
  card,
  revealed,
  onReveal,
  onGrade,
  revealRef,
  gradeRef,
}: {
  card: PracticeCard
  revealed: boolean
  onReveal: () => void
  onGrade: (grade: PracticeGrade) => void
  revealRef: Ref<HTMLButtonElement>
  gradeRef: Ref<HTMLButtonElement>
}) {
  const t = useStore(practiceMessages)
  const language = useStore(locale)
  return (
    <section aria-labelledby="practice-word" className={cardClass}>
      <CardKind card={card} way="flashcard" />
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h2 id="practice-word" lang={card.language} className="text-4xl font-bold tracking-tight break-words">
          {card.text}
        </h2>
        <ListenButton text={card.text} language={card.language} />
      </div>
      {card.html && showsMore(card.html.front) && <CardField html={card.html.front} lang={card.language} className="mt-3 text-lg" />}
      {revealed ? (
        <dl className="mt-6 grid gap-3 border-t pt-6">
          <div>
            <dt className="sr-only">{t.translation}</dt>
            <dd className="text-xl">{card.html ? <CardField html={card.html.back} /> : translationOf(card, language)}</dd>
          </div>
          {card.example && (
            <div>
              <dt className="sr-only">{t.example}</dt>
              <dd lang={card.language} className="text-muted-foreground italic">
                {card.example}
              </dd>
            </div>
          )}
        </dl>
      ) : (
        <Button
          ref={revealRef}
          size="lg"
          className="mt-8 w-full sm:w-auto"
          aria-keyshortcuts="Space"
          aria-describedby="practice-word"
          onClick={onReveal}
        >
          {t.showAnswer}
        </Button>
      )}
      {revealed && <Grades card={card} onGrade={onGrade} gradeRef={gradeRef} />}
    </section>
  )
}

/** The four grades, each with the card's next interval; `gradeRef` on "Good", or on `focused`. */
export function Grades({
  card,
  onGrade,
  gradeRef,
  focused = 3,
}: {
  card: PracticeCard
  onGrade: (grade: PracticeGrade) => void
  gradeRef: Ref<HTMLButtonElement>
  focused?: PracticeGrade
}) {
  const t = useStore(practiceMessages)
  const language = useStore(locale)
  return (
    <div role="group" aria-label={t.grades} className="mt-6 grid grid-cols-2 gap-2 sm:grid-cols-4">
      {card.next.map((next) => (
        <Button
          key={next.grade}
          ref={next.grade === focused ? gradeRef : undefined}
          variant="outline"
          size="lg"
          aria-keyshortcuts={String(next.grade)}
          className={cn('h-auto flex-col gap-0.5 py-2', gradeLook[next.grade])}
          onClick={() => onGrade(next.grade)}
        >
          <span className="font-semibold">{t[gradeNames[next.grade]]}</span>
          <span className="text-xs font-normal text-muted-foreground">{formatInterval(language, next.seconds)}</span>
        </Button>
      ))}
    </div>
  )
}
