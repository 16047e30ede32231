import type { ReactNode } from 'react'
import { Alert } from '@/client/components/ui/alert'
import { Button, type ButtonProps } from '@/client/components/ui/button'

/**
 * The end of a form: the failure (`error`, announced as it appears) or the success, then the submit
 * button, which is off while the form is sent and says so (`pendingLabel`). In a card the button
 * spans the form (`stretch`); elsewhere it keeps its own width, with the form's other actions
 * (`children`, e.g. Cancel) beside it.
 */
export function FormSubmit({
  label,
  pendingLabel,
  pending,
  error,
  success,
  variant,
  disabled = false,
  stretch = false,
  children,
}: {
  label: string
  pendingLabel: string
  pending: boolean
  error?: string
  success?: string
  variant?: ButtonProps['variant']
  /** Off for another reason than sending (nothing changed, a confirmation not typed yet). */
  disabled?: boolean
  stretch?: boolean
  children?: ReactNode
}) {
  const button = (
    <Button type="submit" variant={variant} disabled={disabled || pending}>
      {pending ? pendingLabel : label}
    </Button>
  )
  return (
    <>
      {error && <Alert variant="error">{error}</Alert>}
      {success && <Alert variant="success">{success}</Alert>}
      {stretch ? (
        button
      ) : (
        <div className={children ? 'flex gap-2' : undefined}>
          {button}
          {children}
        </div>
      )}
    </>
  )
}
