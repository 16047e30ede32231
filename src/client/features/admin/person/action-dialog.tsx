import { useStore } from '@nanostores/react'
import { useMutation } from '@tanstack/react-query'
import type { ReactNode, RefObject } from 'react'
import { ConfirmDialog } from '@/client/components/confirm-dialog'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'
import { toast } from '@/client/lib/toast'
import { usePeopleCache } from './api'

/** What one action on a person says and does; the dialog is open while one is given. */
export interface PersonAction {
  title: string
  description: ReactNode
  confirmLabel: string
  pendingLabel: string
  run: () => Promise<unknown>
  /** The toast once it is done. */
  done: string
  /** After the toast and the refresh (e.g. leave the page of a deleted account). */
  after?: () => unknown
  /** The server's 409 in this action's words (the generic "someone else changed this" is wrong here). */
  conflict?: string
  /** The server refused a field (the typed email of a deletion). */
  invalid?: string
  /** Off until what the dialog asks for is given (the typed email). */
  ready?: boolean
  returnFocus?: RefObject<HTMLElement | null>
}

/**
 * The confirmation before an action on a person: what will happen, the server's refusal in the
 * dialog (e.g. 409 for the last administrator), and once done a toast and
 * every read of people refreshed.
 */
export function ActionDialog({ action, onClose }: { action: PersonAction | null; onClose: () => void }) {
  const errorTexts = useStore(apiErrorMessages)
  const { refresh } = usePeopleCache()
  const mutation = useMutation({
    mutationFn: (target: PersonAction) => target.run().then(() => target),
    onSuccess: async (target) => {
      // The page shows the change before the dialog closes (still pending meanwhile), so that the
      // focus goes back to what is there then: the button that opened it, or `returnFocus` when
      // that button went with what it removed (a session).
      if (!target.after) await refresh()
      toast({ title: target.done, variant: 'success' })
      mutation.reset()
      onClose()
      if (target.after) {
        await target.after()
        await refresh()
      }
    },
  })

  const failure = (error: unknown): string => {
    if (error instanceof ApiRequestError) {
      if (error.status === 409 && action?.conflict) return action.conflict
      if (error.code === 'validation_failed' && action?.invalid) return action.invalid
    }
    return errorMessage(error, errorTexts)
  }

  const close = () => {
    if (mutation.isPending) return
    mutation.reset()
    onClose()
  }

  return (
    <ConfirmDialog
      open={action !== null}
      title={action?.title ?? ''}
      description={action?.description}
      confirmLabel={action?.confirmLabel ?? ''}
      pendingLabel={action?.pendingLabel ?? ''}
      pending={mutation.isPending}
      confirmDisabled={action?.ready === false}
      error={mutation.isError ? failure(mutation.error) : undefined}
      onConfirm={() => action && action.ready !== false && mutation.mutate(action)}
      onClose={close}
      returnFocus={action?.returnFocus}
    />
  )
}
