import { type RefObject, useEffect } from 'react'
import type { PracticeCard, PracticeGrade } from '@/shared/practice'

/**
 * Space shows the answer, 1–4 grade, U undoes: not while typing, nor with a dialog open. Space on
 * another control (a link, "Undo", the theme switch) is that control's.
 */
export function usePracticeKeys({
  card,
  revealed,
  reveal,
  grade,
  undo,
  revealRef,
}: {
  card: PracticeCard | null
  revealed: boolean
  reveal: () => void
  grade: (value: PracticeGrade) => void
  undo: () => void
  revealRef: RefObject<HTMLButtonElement | null>
}): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.repeat) return
      const target = event.target as HTMLElement | null
      if (target?.closest('input, textarea, select, [contenteditable], [role="dialog"], [role="alertdialog"], [role="menu"]')) return
      const otherControl = target?.closest('a, button, summary') && target !== revealRef.current
      if (event.key === ' ' && !revealed && card && !otherControl) {
        // "Show answer" focused would be pressed by Space too: the key does it once.
        event.preventDefault()
        reveal()
      } else if (/^[1-4]$/.test(event.key) && revealed) {
        event.preventDefault()
        grade(Number(event.key) as PracticeGrade)
      } else if (event.key === 'u' || event.key === 'U') {
        event.preventDefault()
        undo()
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [revealed, card, reveal, grade, undo, revealRef])
}
