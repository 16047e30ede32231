import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import type { PracticeCard, PracticeQueue, PracticeWay } from '@/shared/practice'
import { answerable } from '@/shared/practice-ways'
import { useSyncTimeZone } from '@/client/api/practice-progress'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { PageHeading } from '@/client/components/ui/page-heading'
import { Skeleton } from '@/client/components/ui/skeleton'
import { errorMessage } from '@/client/lib/error-message'
import { locale } from '@/client/lib/i18n'
import { languageName } from '@/client/lib/language-names'
import { apiErrorMessages } from '@/client/lib/messages'
import { usePageTitle } from '@/client/lib/page-title'
import { AnswerCard } from './answer-card'
import { practiceQueueQuery } from './api/queue'
import { CardView } from './card-view'
import { practiceMessages } from './messages'
import { SessionEnd } from './session-end'
import { useVoice } from './speech'
import { useFocusAfter } from './use-focus-after'
import { useOnline } from './use-outbox'
import { usePracticeKeys } from './use-practice-keys'
import { usePracticeSession } from './use-practice-session'
import { useQueueRefetch } from './use-queue-refetch'
import { wantsVoice, wayOf } from './ways'

/**
 * `/practice` (auth guard): today's cards, due ones first, then new words of the current level,
 * one at a time: the word, "Show answer" (Space), then "Again", "Hard", "Good", "Easy" (1–4) with
 * the next interval of each; "Undo" (U) takes the last grade back. Answers go through an outbox
 * (IndexedDB) so that practice goes on offline (docs/decisions/0024-practice-page.md).
 */
export function PracticePage({ deck }: { deck?: number }) {
  const t = useStore(practiceMessages)
  const errors = useStore(apiErrorMessages)
  // The learner's day is their time zone's: a learner who comes here first sends it from here.
  useSyncTimeZone()
  const queue = useQuery(practiceQueueQuery(deck))
  usePageTitle(t.title)

  if (!queue.data && queue.isError) {
    return (
      <article className="mx-auto max-w-2xl">
        <PageHeading className="text-3xl font-bold tracking-tight">{t.title}</PageHeading>
        <Alert variant="error" className="mt-6 flex flex-wrap items-center justify-between gap-3">
          <span>
            {t.loadError} {errorMessage(queue.error, errors)}
          </span>
          <Button variant="outline" size="sm" onClick={() => void queue.refetch()}>
            {t.retry}
          </Button>
        </Alert>
      </article>
    )
  }
  return <Session queue={queue.data} refetch={queue.refetch} oneDeck={deck !== undefined} />
}

function Loading() {
  const t = useStore(practiceMessages)
  return (
    <div role="status" aria-label={t.title} aria-busy="true" className="mt-6 grid gap-4">
      <Skeleton className="h-5 w-24" />
      <Skeleton className="h-56 rounded-xl" />
    </div>
  )
}

function Session({
  queue,
  refetch,
  oneDeck,
}: {
  queue: PracticeQueue | undefined
  refetch: () => Promise<unknown>
  oneDeck: boolean
}) {
  const t = useStore(practiceMessages)
  const online = useOnline()
  const { revealRef, answerRef, gradeRef, doneRef, focusNext } = useFocusAfter()
  const practice = usePracticeSession(queue, focusNext)
  const { session, ready, card, outbox, undoing, reveal, grade, undo } = practice
  const { way, voiceless, waiting } = useWay(card, queue?.ways ?? [])
  useQueueRefetch({ queue, online, coming: practice.coming, finished: ready && !card, refetch })
  usePracticeKeys({ card, flashcard: way === 'flashcard', revealed: session.revealed, reveal, grade, undo, revealRef })

  return (
    <article className="mx-auto max-w-2xl">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <PageHeading className="text-3xl font-bold tracking-tight">{t.title}</PageHeading>
        {ready && card && <p className="text-sm font-medium text-muted-foreground">{t.left({ count: practice.left })}</p>}
      </div>
      <p className="mt-2 text-muted-foreground">{oneDeck ? t.deckLead : t.lead}</p>
      <Connection online={online} waiting={outbox.waiting} saved={outbox.saved} />
      {practice.notice && (
        <Alert variant="warning" className="mt-4">
          {practice.notice}
        </Alert>
      )}
      {voiceless && <p className="mt-4 text-sm text-muted-foreground">{voiceless}</p>}
      {!ready || waiting ? (
        <Loading />
      ) : card && way !== 'flashcard' ? (
        <AnswerCard
          key={card.wordId}
          card={card}
          way={way}
          revealed={session.revealed}
          onAnswered={practice.answered}
          onGrade={grade}
          answerRef={answerRef}
          firstChoiceRef={revealRef}
          nextRef={gradeRef}
        />
      ) : card ? (
        <CardView
          key={card.wordId}
          card={card}
          revealed={session.revealed}
          onReveal={reveal}
          onGrade={grade}
          revealRef={revealRef}
          gradeRef={gradeRef}
        />
      ) : (
        <SessionEnd
          headingRef={doneRef}
          dueAgain={queue?.cards.length ?? 0}
          laterToday={queue?.laterToday}
          newWords={queue?.newWords}
          counts={session.counts}
          onAgain={practice.again}
        />
      )}
      {/* The keys and Undo while there is a card, or a grade to undo: not on a page with nothing to practise. */}
      {ready && (card || session.last) && (
        <div className="mt-6 flex flex-wrap items-center gap-x-4 gap-y-2">
          <Button variant="outline" size="sm" aria-keyshortcuts="U" disabled={!session.last || undoing} onClick={undo}>
            {t.undo}
          </Button>
          <p className="text-sm text-muted-foreground">{way === 'flashcard' ? t.keys : t.answerKeys}</p>
        </div>
      )}
      <p role="status" className="sr-only">
        {practice.announcement}
      </p>
    </article>
  )
}

/**
 * The way the card on screen is practised in (ways.ts), once the browser's voices are known when
 * it would be "Listen and type"; and, where that way is on but the browser has no voice for the
 * card's language, the one line that says so.
 */
function useWay(card: PracticeCard | null, ways: readonly PracticeWay[]) {
  const t = useStore(practiceMessages)
  const language = useStore(locale)
  const { voice, known } = useVoice(card?.language ?? '')
  if (!card) return { way: 'flashcard' as const, voiceless: null, waiting: false }
  const way = wayOf(card, ways, voice !== undefined)
  const voiceless =
    known && !voice && ways.includes('listen') && answerable(card) ? t.noVoice({ language: languageName(language, card.language) }) : null
  return { way, voiceless, waiting: !known && wantsVoice(card, ways) }
}

/** "Offline — your answers will be saved" while offline; "Back online — {n} answers saved" after. */
function Connection({ online, waiting, saved }: { online: boolean; waiting: number; saved: number }) {
  const t = useStore(practiceMessages)
  if (!online) {
    return (
      <Alert variant="warning" className="mt-4">
        <span className="font-medium">{t.offline}</span>
        {waiting > 0 && <span className="block text-muted-foreground">{t.waiting({ count: waiting })}</span>}
      </Alert>
    )
  }
  if (saved > 0) {
    return (
      <Alert variant="success" className="mt-4">
        {t.backOnline({ n: saved })}
      </Alert>
    )
  }
  return null
}
