import { useStore } from '@nanostores/react'
import { useCallback, useReducer, useState, useTransition } from 'react'
import type { PracticeGrade, PracticeQueue } from '@/shared/practice'
import { usePracticeCache } from '@/client/api/practice-progress'
import { currentUser } from '@/client/lib/auth'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { locale } from '@/client/lib/i18n'
import { apiErrorMessages } from '@/client/lib/messages'
import { useUndoGrade } from './api/queue'
import { gradeNames, translationOf } from './card-view'
import { newClientId } from './client-id'
import { formatInterval } from './interval'
import { practiceMessages } from './messages'
import { cardsLeft, newSession, sessionReducer, upcoming } from './session'
import { useOutbox } from './use-outbox'

/**
 * One session of practice over `queue` (session.ts has its rules): the card on screen, what is
 * left, the outbox its grades go through, and "Show answer" (or an answer checked), the grades and "Undo", each saying
 * what it did (`announcement`, for screen readers) and moving the focus (`focusNext`).
 */
export function usePracticeSession(queue: PracticeQueue | undefined, focusNext: (target: 'reveal' | 'grade') => void) {
  const t = useStore(practiceMessages)
  const errors = useStore(apiErrorMessages)
  const language = useStore(locale)
  const user = useStore(currentUser)
  const { todayChanged } = usePracticeCache()
  const undoGrade = useUndoGrade()
  const [session, dispatch] = useReducer(sessionReducer, undefined, newSession)
  const [notice, setNotice] = useState<string | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const [undoing, startUndo] = useTransition()

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

  const reveal = useCallback(() => {
    if (!card || session.revealed) return
    dispatch({ type: 'reveal' })
    focusNext('grade')
    setAnnouncement(t.announceAnswer({ text: card.text, translation: translationOf(card, language) }))
  }, [card, session.revealed, t, language, focusNext])

  /** An answer checked (a way other than the flashcard): its result said, focus on "Next". */
  const answered = useCallback(
    (result: string) => {
      if (!card || session.revealed) return
      dispatch({ type: 'reveal' })
      focusNext('grade')
      setAnnouncement(result)
    },
    [card, session.revealed, focusNext],
  )

  const grade = useCallback(
    (value: PracticeGrade) => {
      if (!card || !session.revealed || !outbox.outbox) return
      const next = card.next.find((n) => n.grade === value)
      const clientId = newClientId()
      dispatch({ type: 'graded', graded: { card, clientId, grade: value } })
      setNotice(null)
      focusNext('reveal')
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
    [card, session.revealed, outbox, t, language, focusNext],
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
        focusNext('reveal')
        setNotice(null)
        setAnnouncement(t.announceUndo({ text: last.card.text }))
      } catch (error) {
        setNotice(error instanceof ApiRequestError && error.status === 409 ? t.undoFailed : errorMessage(error, errors))
      }
    })
  }, [session.last, outbox, undoing, undoGrade, t, errors, focusNext])

  const again = () => dispatch({ type: 'again' })

  return { session, ready, card, coming: coming.length, left, outbox, notice, announcement, undoing, reveal, answered, grade, undo, again }
}
