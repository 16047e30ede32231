import type { ComponentProps, FormEvent, ReactNode } from 'react'
import { DialogClose, DialogFrame } from '@/client/components/dialog-frame'
import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'

/** The end of a dialog's form: Cancel (closes it) and the submit button, both off while it is sent. */
function DialogActions({
  cancelLabel,
  submitLabel,
  busy,
  submitDisabled = false,
}: {
  cancelLabel: string
  /** Says what the button does, or that it is being done. */
  submitLabel: string
  busy: boolean
  /** Off for another reason than sending (the record has gone, nothing to send to). */
  submitDisabled?: boolean
}) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <DialogClose asChild>
        <Button variant="outline" disabled={busy}>
          {cancelLabel}
        </Button>
      </DialogClose>
      <Button type="submit" disabled={busy || submitDisabled}>
        {submitLabel}
      </Button>
    </div>
  )
}

/**
 * A dialog around one form (a word's, a deck's): its fields (`children`, with any alert of their
 * own at their end), the failure the fields do not explain (`error`), then Cancel and submit.
 */
export function FormDialog({
  onSubmit,
  error,
  cancelLabel,
  submitLabel,
  submitDisabled,
  children,
  ...frame
}: Omit<ComponentProps<typeof DialogFrame>, 'children'> & {
  onSubmit: (event: FormEvent<HTMLFormElement>) => unknown
  error?: string
  cancelLabel: string
  submitLabel: string
  submitDisabled?: boolean
  children: ReactNode
}) {
  return (
    <DialogFrame {...frame}>
      <form method="post" noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
        {children}
        {error && <Alert variant="error">{error}</Alert>}
        <DialogActions cancelLabel={cancelLabel} submitLabel={submitLabel} busy={frame.busy ?? false} submitDisabled={submitDisabled} />
      </form>
    </DialogFrame>
  )
}
