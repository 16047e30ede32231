import { useCallback, useEffect, useRef } from 'react'

type Target = 'reveal' | 'grade'

/**
 * Where focus goes once a change shows (after a grade, a reveal or an undo; never on load): to
 * "Show answer" (or the end of the session's heading when no card is left), or to the grades.
 */
export function useFocusAfter() {
  const revealRef = useRef<HTMLButtonElement>(null)
  const gradeRef = useRef<HTMLButtonElement>(null)
  const doneRef = useRef<HTMLHeadingElement>(null)
  const next = useRef<Target | null>(null)
  useEffect(() => {
    const target = next.current
    next.current = null
    if (target === 'reveal') (revealRef.current ?? doneRef.current)?.focus()
    if (target === 'grade') gradeRef.current?.focus()
  })
  const focusNext = useCallback((target: Target) => {
    next.current = target
  }, [])
  return { revealRef, gradeRef, doneRef, focusNext }
}
