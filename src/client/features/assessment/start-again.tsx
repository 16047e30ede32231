import { useStore } from '@nanostores/react'
import { useState } from 'react'
import { ConfirmDialog } from '@/client/components/confirm-dialog'
import { Button } from '@/client/components/ui/button'
import { errorMessage } from '@/client/lib/error-message'
import { apiErrorMessages } from '@/client/lib/messages'
import { useStartAgain } from './api'
import { assessmentMessages } from './messages'

/**
 * "Start again", confirmed: the assessment in progress (if any) and its answers are deleted, and a
 * new one starts at the first skill. Finished results stay (the dashboard shows the latest).
 */
export function StartAgain({ midway }: { midway: boolean }) {
  const t = useStore(assessmentMessages)
  const errors = useStore(apiErrorMessages)
  const [open, setOpen] = useState(false)
  const again = useStartAgain(() => setOpen(false))
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        {t.startAgain}
      </Button>
      <ConfirmDialog
        open={open}
        title={t.confirmTitle}
        description={midway ? t.confirmMidway : t.confirmResult}
        confirmLabel={t.confirmButton}
        pendingLabel={t.starting}
        pending={again.isPending}
        error={again.isError ? errorMessage(again.error, errors) : undefined}
        onConfirm={() => again.mutate()}
        onClose={() => {
          setOpen(false)
          again.reset()
        }}
      />
    </>
  )
}
