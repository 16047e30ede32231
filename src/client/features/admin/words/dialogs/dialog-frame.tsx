import { Dialog } from 'radix-ui'
import { type ReactNode, type RefObject, useRef } from 'react'
import { cn } from '@/client/lib/cn'

/**
 * The frame of the words section's dialogs (a word's form, the CSV import): opened from a plain
 * button, it gives focus back to that button on closing, or to `returnFocus` when the button has
 * gone with its row. Closing is refused while `busy`.
 */
export function DialogFrame({
  open,
  busy,
  title,
  lead,
  wide = false,
  returnFocus,
  onClose,
  children,
}: {
  open: boolean
  busy: boolean
  title: string
  lead: ReactNode
  wide?: boolean
  returnFocus: RefObject<HTMLElement | null>
  onClose: () => void
  children: ReactNode
}) {
  const opener = useRef<HTMLElement | null>(null)
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50" />
        <Dialog.Content
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            ;(opener.current?.isConnected ? opener.current : returnFocus.current)?.focus()
            opener.current = null
          }}
          className={cn(
            'fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] -translate-1/2 gap-4 overflow-y-auto rounded-xl border bg-card p-4 shadow-2xl sm:p-6',
            wide ? 'max-w-2xl' : 'max-w-lg',
          )}
        >
          <Dialog.Title className="text-lg font-semibold wrap-break-word">{title}</Dialog.Title>
          <Dialog.Description className="text-sm text-muted-foreground">{lead}</Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

/** The dialog's Cancel or Close button. */
export const DialogClose = Dialog.Close
