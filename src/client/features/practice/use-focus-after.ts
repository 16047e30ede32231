import { useCallback, useEffect, useRef } from 'react'

type Target = 'reveal' | 'grade'

/**
 * Where focus goes once a change shows (after a grade, a reveal, an answer checked or an undo; never
 * on load): to the next card's first control — "Show answer", the answer's field, the first choice
 * — (or the end of the session's heading when no card is left), or to the grades ("Next" after an
 * answer).
 */
export function useFocusAfter() {
  const revealRef = useRef<HTMLButtonElement>(null)
  const answerRef = useRef<HTMLInputElement>(null)
  const gradeRef = useRef<HTMLButtonElement>(null)
  const doneRef = useRef<HTMLHeadingElement>(null)
  const next = useRef<Target | null>(null)
  useEffect(() => {
    const target = next.current
    next.current = null
    if (target === 'reveal') (revealRef.current ?? answerRef.current ?? doneRef.current)?.focus()
    if (target === 'grade') gradeRef.current?.focus()
  })
  const focusNext = useCallback((target: Target) => {
    next.current = target
  }, [])
  return { revealRef, answerRef, gradeRef, doneRef, focusNext }
}
