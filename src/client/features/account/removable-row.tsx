import { useStore } from '@nanostores/react'
import { useMutation } from '@tanstack/react-query'
import { type ReactNode, useId, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { accountMessages } from './messages'
import { type MethodChanged, useRemovalFailure } from './method-change'

/**
 * A removal asked for from a row, then confirmed in a dialog (spread `dialog` into the
 * ConfirmDialog): the item asked about, the request, and why it failed. Once it succeeded the
 * dialog closes after the list is read again, so that focus goes to the heading, the row gone.
 */
export function useConfirmedRemoval<T>({
  remove,
  removed,
  onChanged,
}: {
  remove: (item: T) => Promise<unknown>
  /** What the status line says once it is removed. */
  removed: (item: T) => string
  onChanged: MethodChanged
}) {
  const [asked, setAsked] = useState<T | null>(null)
  const removalFailure = useRemovalFailure()
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: async (_, item) => {
      await onChanged(removed(item))
      setAsked(null)
    },
  })
  return {
    asked,
    ask: (item: T) => {
      mutation.reset()
      setAsked(item)
    },
    dialog: {
      open: asked !== null,
      pending: mutation.isPending,
      error: mutation.isError ? removalFailure(mutation.error) : undefined,
      onConfirm: () => {
        if (asked !== null) mutation.mutate(asked)
      },
      onClose: () => setAsked(null),
    },
  }
}

/**
 * A sign-in method in its list: what it is, and its buttons, the last one removing it — off, and
 * saying why, when it is the account's only way to sign in.
 */
export function RemovableRow({
  icon,
  children,
  only,
  actions,
  removeLabel,
  removeText,
  onRemove,
}: {
  icon?: ReactNode
  /** The lines that say what it is. */
  children: ReactNode
  /** The account has no other way to sign in: removing is off (the server refuses it anyway). */
  only: boolean
  /** Buttons before the removing one. */
  actions?: ReactNode
  /** The removing button's accessible name (which one it removes). */
  removeLabel: string
  removeText: string
  onRemove: () => void
}) {
  const t = useStore(accountMessages)
  const hintId = useId()
  const details = (
    <div className="min-w-0">
      {children}
      {only && (
        <p id={hintId} className="text-sm text-muted-foreground">
          {t.onlyMethod}
        </p>
      )}
    </div>
  )
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      {icon ? (
        <div className="flex min-w-0 items-start gap-3">
          {icon}
          {details}
        </div>
      ) : (
        details
      )}
      <div className="flex gap-2">
        {actions}
        <Button
          variant="outline"
          size="sm"
          aria-label={removeLabel}
          aria-describedby={only ? hintId : undefined}
          disabled={only}
          onClick={onRemove}
        >
          {removeText}
        </Button>
      </div>
    </li>
  )
}
