import { useStore } from '@nanostores/react'
import { AlertDialog } from 'radix-ui'
import { type ReactNode, type RefObject, useRef } from 'react'
import { Alert } from './ui/alert'
import { Button } from './ui/button'
import { uiMessages } from './ui/messages'

export interface ConfirmDialogProps {
  open: boolean
  title: string
  /** A sentence, or richer content (e.g. what the change affects, read when the dialog opens). */
  description: ReactNode
  confirmLabel: string
  pendingLabel: string
  pending: boolean
  /** Off until the dialog has what it asks for (e.g. a typed confirmation). */
  confirmDisabled?: boolean
  /** Why the last attempt failed, in the interface language. */
  error?: string
  onConfirm: () => void
  onClose: () => void
  returnFocus?: RefObject<HTMLElement | null>
}

/** The dialog of `ConfirmDialog` (confirm-dialog.tsx), loaded when it first opens. */
export default function ConfirmDialogContent({
  open,
  title,
  description,
  confirmLabel,
  pendingLabel,
  pending,
  confirmDisabled = false,
  error,
  onConfirm,
  onClose,
  returnFocus,
}: ConfirmDialogProps) {
  const t = useStore(uiMessages)
  const opener = useRef<HTMLElement | null>(null)
  // Kept from the opening: the dialog's owner may have let go of it by the time the dialog closes.
  const fallback = useRef<RefObject<HTMLElement | null> | undefined>(undefined)
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && !pending && onClose()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50" />
        <AlertDialog.Content
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
            fallback.current = returnFocus
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            const target = opener.current?.isConnected ? opener.current : (returnFocus ?? fallback.current)?.current
            target?.focus()
            opener.current = null
            fallback.current = undefined
          }}
          className="fixed top-1/2 left-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-1/2 gap-4 rounded-xl border bg-card p-6 shadow-2xl"
        >
          <AlertDialog.Title className="text-lg font-semibold wrap-break-word">{title}</AlertDialog.Title>
          {typeof description === 'string' ? (
            <AlertDialog.Description className="text-sm wrap-break-word text-muted-foreground">
              {description}
            </AlertDialog.Description>
          ) : (
            <AlertDialog.Description asChild>
              <div className="grid gap-3 text-sm">{description}</div>
            </AlertDialog.Description>
          )}
          {error && <Alert variant="error">{error}</Alert>}
          <div className="flex flex-wrap justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button variant="outline" disabled={pending}>
                {t.cancel}
              </Button>
            </AlertDialog.Cancel>
            <Button variant="destructive" disabled={pending || confirmDisabled} onClick={onConfirm}>
              {pending ? pendingLabel : confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}
