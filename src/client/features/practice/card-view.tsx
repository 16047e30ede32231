import { useStore } from '@nanostores/react'
import type { Ref } from 'react'
import type { PracticeCard, PracticeGrade } from '@/shared/practice'
import { CardField } from '@/client/components/card-field/card-field'
import { Button } from '@/client/components/ui/button'
import { cn } from '@/client/lib/cn'
import { locale } from '@/client/lib/i18n'
import { formatInterval } from './interval'
import { practiceMessages } from './messages'
import { ListenButton } from './speech'

type Messages = ReturnType<typeof practiceMessages.get>

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

/** Whether an imported side shows more than its text (a picture, a sound), drawn under the heading. */
const showsMore = (html: string) => html.includes('<img') || html.includes('<audio-ref')

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
  const part = card.partOfSpeech ? t[card.partOfSpeech] : null
  return (
    <section aria-labelledby="practice-word" className="mt-6 rounded-xl border bg-card p-6 shadow-sm sm:p-8">
      <p className="text-sm text-muted-foreground">
        {card.kind === 'new' ? t.newWord : t.review}
        {part && ` · ${part}`}
      </p>
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
      {revealed && <Grades card={card} t={t} language={language} onGrade={onGrade} gradeRef={gradeRef} />}
    </section>
  )
}

function Grades({
  card,
  t,
  language,
  onGrade,
  gradeRef,
}: {
  card: PracticeCard
  t: Messages
  language: string
  onGrade: (grade: PracticeGrade) => void
  gradeRef: Ref<HTMLButtonElement>
}) {
  return (
    <div role="group" aria-label={t.grades} className="mt-6 grid grid-cols-2 gap-2 sm:grid-cols-4">
      {card.next.map((next) => (
        <Button
          key={next.grade}
          ref={next.grade === 3 ? gradeRef : undefined}
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
