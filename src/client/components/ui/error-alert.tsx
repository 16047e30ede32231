import { useStore } from '@nanostores/react'
import { errorMessage } from '@/client/lib/error-message'
import { apiErrorMessages } from '@/client/lib/messages'
import { Alert } from './alert'
import { Button } from './button'

/** A failed request in the user's words, with a button to try again ("Try again" unless named). */
export function ErrorAlert({
  error,
  onRetry,
  retryLabel,
}: {
  error: unknown
  onRetry: () => unknown
  retryLabel?: string
}) {
  const t = useStore(apiErrorMessages)
  return (
    <Alert variant="error">
      <p>{errorMessage(error, t)}</p>
      <Button variant="outline" size="sm" className="mt-3" onClick={() => void onRetry()}>
        {retryLabel ?? t.retry}
      </Button>
    </Alert>
  )
}
