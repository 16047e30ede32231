import { type RefObject, useEffect } from 'react'
import type { PracticeCard, PracticeGrade } from '@/shared/practice'

/**
 * Whether a key press is left to what has focus: with a modifier, held down, while typing, or with
 * a dialog or menu open (the command palette).
 */
export function keyIsElsewhere(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.repeat) return true
  const target = event.target as HTMLElement | null
  return Boolean(target?.closest('input, textarea, select, [contenteditable], [role="dialog"], [role="alertdialog"], [role="menu"]'))
}

/**
 * Space shows the answer, 1–4 grade, U undoes: not while typing, nor with a dialog open. Space on
 * another control (a link, "Undo", the theme switch) is that control's. Space and 1–4 are a
 * flashcard's: the other ways take their keys themselves (answer-card.tsx).
 */
export function usePracticeKeys({
  card,
  flashcard,
  revealed,
  reveal,
  grade,
  undo,
  revealRef,
}: {
  card: PracticeCard | null
  flashcard: boolean
  revealed: boolean
  reveal: () => void
  grade: (value: PracticeGrade) => void
  undo: () => void
  revealRef: RefObject<HTMLButtonElement | null>
}): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (keyIsElsewhere(event)) return
      const target = event.target as HTMLElement | null
      const otherControl = target?.closest('a, button, summary') && target !== revealRef.current
      if (event.key === ' ' && flashcard && !revealed && card && !otherControl) {
        // "Show answer" focused would be pressed by Space too: the key does it once.
        event.preventDefault()
        reveal()
      } else if (/^[1-4]$/.test(event.key) && flashcard && revealed) {
        event.preventDefault()
        grade(Number(event.key) as PracticeGrade)
      } else if (event.key === 'u' || event.key === 'U') {
        event.preventDefault()
        undo()
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [revealed, card, flashcard, reveal, grade, undo, revealRef])
}
