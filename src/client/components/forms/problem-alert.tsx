import { Alert } from '@/client/components/ui/alert'
import { Button } from '@/client/components/ui/button'

/**
 * Why a form cannot be saved as it is, when no field says it: a title, a sentence, and the way out
 * if there is one (`reload`: load the record as it is now, after someone else saved it).
 */
export function ProblemAlert({
  title,
  body,
  variant = 'error',
  reload,
}: {
  title: string
  body: string
  variant?: 'error' | 'warning'
  reload?: { label: string; onClick: () => unknown }
}) {
  return (
    <Alert variant={variant}>
      <p className="font-semibold">{title}</p>
      <p className="mt-1">{body}</p>
      {reload && (
        <Button variant="outline" size="sm" className="mt-3" onClick={() => void reload.onClick()}>
          {reload.label}
        </Button>
      )}
    </Alert>
  )
}
