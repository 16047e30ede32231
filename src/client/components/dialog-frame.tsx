import { Dialog } from 'radix-ui'
import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react'
import { cn } from '@/client/lib/cn'

/**
 * The frame of the admin pages' dialogs (a statement's or a word's form, a CSV import): modal,
 * titled and described, closed by Escape or its own buttons; closing is refused while `busy`.
 * Focus goes back to the button that opened it, or to `returnFocus` when that button has gone
 * with its row. A page may close it by `open={false}` (Radix gives focus back) or by unmounting
 * it (Radix does not run then: the frame gives focus back itself).
 */
export function DialogFrame({
  open = true,
  title,
  lead,
  busy = false,
  wide = false,
  returnFocus,
  onClose,
  children,
}: {
  open?: boolean
  title: string
  lead: ReactNode
  busy?: boolean
  wide?: boolean
  returnFocus?: RefObject<HTMLElement | null>
  onClose: () => void
  children: ReactNode
}) {
  // What had focus as it opened (the button that opened it), read once, before the dialog takes it.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null))
  const giveFocusBack = () => (opener?.isConnected ? opener : returnFocus?.current)?.focus()
  const stillOpen = useRef(open)
  useEffect(() => {
    stillOpen.current = open
  }, [open])
  useEffect(
    () => () => {
      // Unmounted while open: after the dialog has gone, and only to a button still on the page.
      if (stillOpen.current)
        setTimeout(() => {
          if (opener?.isConnected) opener.focus()
        })
    },
    [opener],
  )
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            giveFocusBack()
          }}
          // Clicking beside it does not throw away what was typed or checked.
          onPointerDownOutside={(event) => event.preventDefault()}
          className={cn(
            'fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] -translate-1/2 gap-4 overflow-y-auto rounded-xl border bg-card p-4 shadow-2xl sm:p-6',
            wide ? 'max-w-2xl' : 'max-w-lg',
          )}
        >
          <div>
            <Dialog.Title className="text-lg font-semibold wrap-break-word">{title}</Dialog.Title>
            <Dialog.Description className="mt-1 text-sm wrap-break-word text-muted-foreground">{lead}</Dialog.Description>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

/** The dialog's Cancel or Close button. */
export const DialogClose = Dialog.Close
