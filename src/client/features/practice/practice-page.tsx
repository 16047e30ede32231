import { useStore } from '@nanostores/react'
import { useQuery } from '@tanstack/react-query'
import { newWordsNote, usePracticeCache, useSyncTimeZone } from '@/client/api/practice-progress'
import { Link } from '@tanstack/react-router'
import { type Ref, useCallback, useEffect, useReducer, useRef, useState, useTransition } from 'react'
import type { NewWordsSource, PracticeGrade, PracticeQueue } from '@/shared/practice'
import { Alert } from '@/client/components/ui/alert'
import { Button, buttonClass } from '@/client/components/ui/button'
import { PageHeading } from '@/client/components/ui/page-heading'
import { Skeleton } from '@/client/components/ui/skeleton'
import { currentUser } from '@/client/lib/auth'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { formatDateTime } from '@/client/lib/format-time'
import { locale } from '@/client/lib/i18n'
import { apiErrorMessages } from '@/client/lib/messages'
import { usePageTitle } from '@/client/lib/page-title'
import { practiceQueueQuery, useUndoGrade } from './api/queue'
import { CardView, gradeNames, translationOf } from './card-view'
import { formatInterval } from './interval'
import { practiceMessages } from './messages'
import { newClientId } from './client-id'
import { cardsLeft, gradesGiven, newSession, sessionReducer, upcoming } from './session'
import { useOnline, useOutbox } from './use-outbox'

/**
 * `/practice` (auth guard): today's cards, due ones first, then new words of the current level,
 * one at a time: the word, "Show answer" (Space), then "Again", "Hard", "Good", "Easy" (1–4) with
 * the next interval of each; "Undo" (U) takes the last grade back. Answers go through an outbox
 * (IndexedDB) so that practice goes on offline (docs/decisions/0024-practice-page.md).
 */
export function PracticePage() {
  const t = useStore(practiceMessages)
  const errors = useStore(apiErrorMessages)
  // The learner's day is their time zone's: a learner who comes here first sends it from here.
  useSyncTimeZone()
  const queue = useQuery(practiceQueueQuery())
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
  return <Session queue={queue.data} refetch={queue.refetch} />
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

function Session({ queue, refetch }: { queue: PracticeQueue | undefined; refetch: () => Promise<unknown> }) {
  const t = useStore(practiceMessages)
  const errors = useStore(apiErrorMessages)
  const language = useStore(locale)
  const user = useStore(currentUser)
  const { todayChanged } = usePracticeCache()
  const undoGrade = useUndoGrade()
  const online = useOnline()
  const [session, dispatch] = useReducer(sessionReducer, undefined, newSession)
  const [notice, setNotice] = useState<string | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const [undoing, startUndo] = useTransition()
  const revealRef = useRef<HTMLButtonElement>(null)
  const gradeRef = useRef<HTMLButtonElement>(null)
  const doneRef = useRef<HTMLHeadingElement>(null)
  // Where focus goes once the change shows (after a grade, a reveal or an undo; never on load).
  const focusNext = useRef<'reveal' | 'grade' | null>(null)

  const outbox = useOutbox(user?.id, {
    waiting: (wordIds) => dispatch({ type: 'waiting', wordIds }),
    sent: todayChanged,
    dropped: (entry, error) => {
      dispatch({ type: 'refused', clientId: entry.clientId, grade: entry.grade })
      // A new word no longer allowed (new_word_not_allowed) says so in the error's own words.
      const why = error instanceof ApiRequestError && error.code === 'conflict' ? t.gradedElsewhere : errorMessage(error, errors)
      setNotice(why)
      // Heard in place of the grade's "next in …", which did not count.
      setAnnouncement(why)
    },
  })

  // Ready once the queue is read and the outbox open (its waiting answers' words are done).
  const ready = queue !== undefined && outbox.outbox !== null
  const coming = ready ? upcoming(session, queue.cards) : []
  const card = session.pinned ?? coming[0] ?? null
  // The first card to come goes on screen and stays there while the queue is read again.
  if (!session.pinned && card) dispatch({ type: 'pin', card })
  const left = ready ? cardsLeft(session, queue) : 0
  const leftText = t.left({ count: left })

  // Fetch more before the fetched ones run out (the server has more than one queue holds).
  const beyond = queue ? queue.dueNow + queue.newLeft - queue.cards.length : 0
  useEffect(() => {
    if (online && beyond > 0 && coming.length < 10) void refetch()
  }, [online, beyond, coming.length, refetch])

  // Cards that come back later today (graded "Again" a minute ago…): the queue is read again when
  // the first of them is due, so that it shows without a reload.
  const nextLater = ready && !card ? queue.laterToday.next : null
  const madeAt = queue?.at
  useEffect(() => {
    if (!nextLater || !madeAt) return
    const timer = setTimeout(() => void refetch(), Math.max(0, Date.parse(nextLater) - Date.parse(madeAt)) + 1000)
    return () => clearTimeout(timer)
  }, [nextLater, madeAt, refetch])

  useEffect(() => {
    const target = focusNext.current
    focusNext.current = null
    if (target === 'reveal') (revealRef.current ?? doneRef.current)?.focus()
    if (target === 'grade') gradeRef.current?.focus()
  })

  const reveal = useCallback(() => {
    if (!card || session.revealed) return
    dispatch({ type: 'reveal' })
    focusNext.current = 'grade'
    setAnnouncement(t.announceAnswer({ text: card.text, translation: translationOf(card, language) }))
  }, [card, session.revealed, t, language])

  const grade = useCallback(
    (value: PracticeGrade) => {
      if (!card || !session.revealed || !outbox.outbox) return
      const next = card.next.find((n) => n.grade === value)
      const clientId = newClientId()
      dispatch({ type: 'graded', graded: { card, clientId, grade: value } })
      setNotice(null)
      focusNext.current = 'reveal'
      setAnnouncement(
        t.announceGrade({ grade: t[gradeNames[value]], interval: formatInterval(language, next?.seconds ?? 0) }),
      )
      void outbox.add({
        clientId,
        wordId: card.wordId,
        grade: value,
        version: card.schedule.version,
        reviewedAt: new Date().toISOString(),
      })
    },
    [card, session.revealed, outbox, t, language],
  )

  const undo = useCallback(() => {
    const last = session.last
    if (!last || !outbox.outbox || undoing) return
    const { withdraw } = outbox
    startUndo(async () => {
      try {
        if ((await withdraw(last.clientId)) === 'withdrawn') {
          dispatch({ type: 'undone', card: last.card })
        } else {
          const undone = await undoGrade(last.clientId)
          const kind = undone.schedule.state === 'new' ? 'new' : 'due'
          dispatch({ type: 'undone', card: { ...last.card, kind, schedule: undone.schedule } })
        }
        focusNext.current = 'reveal'
        setNotice(null)
        setAnnouncement(t.announceUndo({ text: last.card.text }))
      } catch (error) {
        setNotice(error instanceof ApiRequestError && error.status === 409 ? t.undoFailed : errorMessage(error, errors))
      }
    })
  }, [session.last, outbox, undoing, undoGrade, t, errors])

  // Space shows the answer, 1–4 grade, U undoes: not while typing, nor with a dialog open.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.repeat) return
      const target = event.target as HTMLElement | null
      if (target?.closest('input, textarea, select, [contenteditable], [role="dialog"], [role="alertdialog"], [role="menu"]')) return
      // Space on another control (a link, "Undo", the theme switch) is that control's.
      const otherControl = target?.closest('a, button, summary') && target !== revealRef.current
      if (event.key === ' ' && !session.revealed && card && !otherControl) {
        // "Show answer" focused would be pressed by Space too: the key does it once.
        event.preventDefault()
        reveal()
      } else if (/^[1-4]$/.test(event.key) && session.revealed) {
        event.preventDefault()
        grade(Number(event.key) as PracticeGrade)
      } else if (event.key === 'u' || event.key === 'U') {
        event.preventDefault()
        undo()
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [session.revealed, card, reveal, grade, undo])

  return (
    <article className="mx-auto max-w-2xl">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <PageHeading className="text-3xl font-bold tracking-tight">{t.title}</PageHeading>
        {ready && card && <p className="text-sm font-medium text-muted-foreground">{leftText}</p>}
      </div>
      <p className="mt-2 text-muted-foreground">{t.lead}</p>
      <Connection online={online} waiting={outbox.waiting} saved={outbox.saved} />
      {notice && (
        <Alert variant="warning" className="mt-4">
          {notice}
        </Alert>
      )}
      {!ready ? (
        <Loading />
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
          onAgain={() => dispatch({ type: 'again' })}
        />
      )}
      {/* The keys and Undo while there is a card, or a grade to undo: not on a page with nothing to practise. */}
      {ready && (card || session.last) && (
        <div className="mt-6 flex flex-wrap items-center gap-x-4 gap-y-2">
          <Button variant="outline" size="sm" aria-keyshortcuts="U" disabled={!session.last || undoing} onClick={undo}>
            {t.undo}
          </Button>
          <p className="text-sm text-muted-foreground">{t.keys}</p>
        </div>
      )}
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </article>
  )
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

function SessionEnd({
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
