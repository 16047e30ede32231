import { useStore } from '@nanostores/react'
import { useMutation } from '@tanstack/react-query'
import { type RefObject, useState } from 'react'
import { ConfirmDialog } from '@/client/components/confirm-dialog'
import { errorMessage } from '@/client/lib/error-message'
import { ApiRequestError } from '@/client/lib/http-error'
import { apiErrorMessages } from '@/client/lib/messages'

/**
 * Deleting a word of a table, once confirmed: `ask` opens the confirmation, `remove` deletes it (a
 * 404, deleted elsewhere first, is gone all the same), then `onDeleted` (a toast, the table read
 * again) before the confirmation closes.
 */
export function useWordDelete<Word>({
  remove,
  onDeleted,
}: {
  remove: (word: Word) => Promise<unknown>
  onDeleted: (word: Word) => Promise<unknown>
}) {
  const [deleting, setDeleting] = useState<Word | null>(null)
  const mutation = useMutation({
    mutationFn: async (word: Word) => {
      try {
        await remove(word)
      } catch (error) {
        if (!(error instanceof ApiRequestError && error.status === 404)) throw error
      }
      return word
    },
    onSuccess: async (word) => {
      // The row goes before the dialog closes: focus then falls back to the dialog's
      // `returnFocus` ("Add word"), not to a button about to disappear.
      await onDeleted(word)
      setDeleting(null)
    },
  })
  return {
    deleting,
    mutation,
    ask: (word: Word) => {
      mutation.reset()
      setDeleting(word)
    },
    close: () => !mutation.isPending && setDeleting(null),
  }
}

/** What the confirmation says. */
interface WordDeleteTexts {
  deleteTitle: (values: { text: string }) => string
  deleteLead: string
  confirmDelete: string
  deleting: string
}

/** The confirmation of `useWordDelete`, with the failure of the last try. */
export function WordDeleteDialog<Word extends { text: string }>({
  texts: t,
  state: { deleting, mutation, close },
  returnFocus,
}: {
  texts: WordDeleteTexts
  state: ReturnType<typeof useWordDelete<Word>>
  returnFocus: RefObject<HTMLElement | null>
}) {
  const errorTexts = useStore(apiErrorMessages)
  return (
    <ConfirmDialog
      open={deleting !== null}
      title={deleting ? t.deleteTitle({ text: deleting.text }) : ''}
      description={t.deleteLead}
      confirmLabel={t.confirmDelete}
      pendingLabel={t.deleting}
      pending={mutation.isPending}
      error={mutation.isError ? errorMessage(mutation.error, errorTexts) : undefined}
      onConfirm={() => deleting && mutation.mutate(deleting)}
      onClose={close}
      returnFocus={returnFocus}
    />
  )
}
