import { useStore } from '@nanostores/react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId } from 'react'
import type { MemoryModelState } from '@/shared/memory-model'
import { Button } from '@/client/components/ui/button'
import { Card } from '@/client/components/ui/card'
import { ErrorAlert } from '@/client/components/ui/error-alert'
import { Skeleton } from '@/client/components/ui/skeleton'
import { errorMessage } from '@/client/lib/error-message'
import { format } from '@/client/lib/i18n'
import { apiErrorMessages } from '@/client/lib/messages'
import { toast } from '@/client/lib/toast'
import { memoryModelKey, memoryModelQuery, personalise } from './api'
import { memoryModelMessages } from './messages'

/**
 * The memory model on /progress (PRODUCT §13): "Personalised from {n} reviews" and "log loss
 * {before} → {after}" once fitted; otherwise the default model and the reviews still needed; a
 * fit waiting or running; and "Personalise now", disabled with its reason below the reviews needed.
 * Read again on the live stream's `practice` events (a fit's end is one).
 */
export function MemoryModelCard() {
  const t = useStore(memoryModelMessages)
  const model = useQuery(memoryModelQuery())
  return (
    <Card title={t.title} lead={t.lead}>
      {model.isError ? (
        <ErrorAlert error={model.error} onRetry={() => model.refetch()} />
      ) : model.data ? (
        <MemoryModelBody state={model.data} />
      ) : (
        <Skeleton className="h-28 rounded-lg" />
      )}
    </Card>
  )
}

function MemoryModelBody({ state }: { state: MemoryModelState }) {
  const t = useStore(memoryModelMessages)
  const errors = useStore(apiErrorMessages)
  const formats = useStore(format)
  const client = useQueryClient()
  const reasonId = useId()
  const start = useMutation({
    mutationFn: personalise,
    onSuccess: (queued) => {
      client.setQueryData(memoryModelKey, queued)
      toast({ title: memoryModelMessages.get().personaliseStarted, variant: 'info' })
    },
  })
  const { status, model, reviews, minReviews } = state
  const loss = (value: number) => formats.number(value, { minimumFractionDigits: 3, maximumFractionDigits: 3 })
  const enough = reviews >= minReviews
  const busy = status === 'queued' || status === 'running'

  return (
    <div className="grid gap-3">
      {status === 'personalised' && model ? (
        <p className="font-medium">{t.personalised({ reviews: model.reviews })}</p>
      ) : (
        <p className="font-medium">{t.defaultModel}</p>
      )}
      {model && (
        <div className="grid gap-1 text-sm">
          {status !== 'personalised' && model.logLossAfter >= model.logLossBefore && <p>{t.notBetter}</p>}
          <p className="tabular-nums">{t.logLoss({ before: loss(model.logLossBefore), after: loss(model.logLossAfter) })}</p>
          <p className="text-xs text-muted-foreground">{t.logLossHint}</p>
          <p className="text-xs text-muted-foreground">{t.fittedAt({ date: formats.time(new Date(model.fittedAt), { dateStyle: 'medium' }) })}</p>
        </div>
      )}
      {!model && <p className="text-sm">{enough ? t.reviewsEnough : t.reviewsNeeded({ left: minReviews - reviews })}</p>}
      <p role="status" className="text-sm text-muted-foreground empty:hidden">
        {status === 'queued' ? t.queued : status === 'running' ? t.running : ''}
      </p>
      <div className="grid justify-items-start gap-1">
        <Button
          variant={model ? 'outline' : 'primary'}
          disabled={!enough || busy || start.isPending}
          aria-describedby={enough ? undefined : reasonId}
          onClick={() => start.mutate()}
        >
          {t.personaliseNow}
        </Button>
        {!enough && (
          <p id={reasonId} className="text-xs text-muted-foreground">
            {t.needsReviews({ min: formats.number(minReviews), reviews: formats.number(reviews) })}
          </p>
        )}
        {start.isError && (
          <p role="alert" className="text-sm text-error">
            {errorMessage(start.error, errors)}
          </p>
        )}
      </div>
    </div>
  )
}
