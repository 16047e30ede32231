import { useStore } from '@nanostores/react'
import type { Progress } from '@/shared/progress'
import { format } from '@/client/lib/i18n'
import { progressMessages } from './messages'

type Messages = ReturnType<typeof progressMessages.get>

/** The states in the order a card goes through them, then suspended. */
const states = [
  { key: 'new', label: 'stateNew' },
  { key: 'learning', label: 'stateLearning' },
  { key: 'review', label: 'stateReview' },
  { key: 'relearning', label: 'stateRelearning' },
  { key: 'suspended', label: 'stateSuspended' },
] as const satisfies readonly { key: keyof Progress['states']; label: keyof Messages }[]

/**
 * The cards by state as figures, as the admin overview shows its counts: a term and its number
 * each (text already, so no drawing to stand in for), and the total.
 */
export function CardStates({ states: counts }: { states: Progress['states'] }) {
  const t = useStore(progressMessages)
  const formats = useStore(format)
  const total = states.reduce((sum, { key }) => sum + counts[key], 0)
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {states.map(({ key, label }) => (
          <div key={key} className="flex flex-col rounded-lg border p-3">
            <dt className="text-sm text-muted-foreground">{t[label]}</dt>
            <dd className="order-first text-2xl font-semibold tabular-nums">{formats.number(counts[key])}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-sm text-muted-foreground">{t.statesTotal({ count: total })}</p>
    </>
  )
}
