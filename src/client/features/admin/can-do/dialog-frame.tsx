import { Dialog } from 'radix-ui'
import { type ReactNode, useEffect, useState } from 'react'

/**
 * The frame of this page's dialogs (a statement's form, the CSV import): modal, titled and
 * described, closed by Escape or its own buttons; focus goes back to the button that opened it.
 * `busy` keeps it open while a write is under way. The page mounts it to open it and unmounts it
 * to close it, when Radix's own return of focus does not run: it gives focus back itself.
 */
export function DialogFrame({
  open,
  title,
  lead,
  busy = false,
  onClose,
  children,
}: {
  open: boolean
  title: string
  lead: ReactNode
  busy?: boolean
  onClose: () => void
  children: ReactNode
}) {
  // What had focus as it opened (the button that opened it), read once, before the dialog takes it.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null))
  useEffect(
    () => () => {
      // After the dialog has gone, and only to a button still on the page.
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
          // Clicking beside it does not throw away what was typed or checked.
          onPointerDownOutside={(event) => event.preventDefault()}
          className="fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-2xl -translate-1/2 gap-4 overflow-y-auto rounded-xl border bg-card p-4 shadow-2xl sm:p-6"
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
