import { useStore } from '@nanostores/react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { AssessmentState } from '@/shared/can-do'
import { assessmentKey, resetAssessment, startAssessment } from '@/client/api/assessment'
import { ConfirmDialog } from '@/client/components/confirm-dialog'
import { Button } from '@/client/components/ui/button'
import { errorMessage } from '@/client/lib/error-message'
import { apiErrorMessages } from '@/client/lib/messages'
import { assessmentMessages } from './messages'

/**
 * "Start again", confirmed: the assessment in progress (if any) and its answers are deleted, and a
 * new one starts at the first skill. Finished results stay (the dashboard shows the latest).
 */
export function StartAgain({ midway }: { midway: boolean }) {
  const t = useStore(assessmentMessages)
  const errors = useStore(apiErrorMessages)
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const again = useMutation({
    mutationFn: async () => {
      await resetAssessment()
      return startAssessment()
    },
    onSuccess: (progress) => {
      setOpen(false)
      queryClient.setQueryData<AssessmentState>(assessmentKey, (before) => ({
        inProgress: progress,
        latest: before?.latest ?? null,
      }))
    },
  })
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
