import { useStore } from '@nanostores/react'
import { AlertDialog } from 'radix-ui'
import { type RefObject, useRef } from 'react'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'
import { accountMessages } from './messages'

/**
 * One confirmation before a sign-in method goes (unlinking a provider, removing a passkey). Focus
 * goes back to the button that opened it, or to `returnFocus` once that button has gone with what
 * it removed.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  pendingLabel,
  pending,
  error,
  onConfirm,
  onClose,
  returnFocus,
}: {
  open: boolean
  title: string
  description: string
  confirmLabel: string
  pendingLabel: string
  pending: boolean
  /** Why the last attempt failed, in the interface language. */
  error?: string
  onConfirm: () => void
  onClose: () => void
  returnFocus: RefObject<HTMLElement | null>
}) {
  const t = useStore(accountMessages)
  const opener = useRef<HTMLElement | null>(null)
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && !pending && onClose()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50" />
        <AlertDialog.Content
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            const target = opener.current?.isConnected ? opener.current : returnFocus.current
            target?.focus()
            opener.current = null
          }}
          className="fixed top-1/2 left-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-1/2 gap-4 rounded-xl border bg-card p-6 shadow-2xl"
        >
          <AlertDialog.Title className="text-lg font-semibold wrap-break-word">{title}</AlertDialog.Title>
          <AlertDialog.Description className="text-sm wrap-break-word text-muted-foreground">
            {description}
          </AlertDialog.Description>
          {error && <Alert variant="error">{error}</Alert>}
          <div className="flex flex-wrap justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button variant="outline" disabled={pending}>
                {t.cancel}
              </Button>
            </AlertDialog.Cancel>
            <Button variant="destructive" disabled={pending} onClick={onConfirm}>
              {pending ? pendingLabel : confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}
