import { type ReactNode, useEffectEvent, useId, useLayoutEffect, useRef } from 'react'
import { cn } from '@/client/lib/cn'

/** A link or a button of a dropdown menu. */
export const menuItemClass = 'block w-full rounded-md px-3 py-2 text-left text-sm hover:bg-accent'

/**
 * A menu button's dismissal: while `open`, Escape or a press outside `root` (the button and its
 * menu) calls `onDismiss`, told which. Listening from the moment the menu shows (a layout effect,
 * before the browser paints it): an Escape pressed at once is heard. `menuId` ties the button
 * (`aria-controls`) to the menu.
 */
export function useDropdown(open: boolean, onDismiss: (by: 'escape' | 'outside') => void) {
  const menuId = useId()
  const root = useRef<HTMLDivElement>(null)
  const dismiss = useEffectEvent(onDismiss)
  useLayoutEffect(() => {
    if (!open) return
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent) {
        if (event.key === 'Escape') dismiss('escape')
      } else if (!root.current?.contains(event.target as Node)) {
        dismiss('outside')
      }
    }
    document.addEventListener('keydown', close)
    document.addEventListener('pointerdown', close)
    return () => {
      document.removeEventListener('keydown', close)
      document.removeEventListener('pointerdown', close)
    }
  }, [open])
  return { menuId, root }
}

/** The menu under its button (`className` places it: `left-0` or `right-0`, its layer), hidden while closed. */
export function DropdownMenu({ id, open, className, children }: { id: string; open: boolean; className?: string; children: ReactNode }) {
  return (
    <div id={id} hidden={!open} className={cn('absolute mt-2 w-48 rounded-lg border bg-card p-1 shadow-lg', className)}>
      {children}
    </div>
  )
}
