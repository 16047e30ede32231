import { useStore } from '@nanostores/react'
import { Button } from '@/client/components/ui/button'
import { progressMessages } from './messages'

/** The days of reviews shown. */
export type Span = 30 | 90

/** "Last 30 days" / "Last 90 days": two toggle buttons, the one shown pressed. */
export function PeriodSwitch({ span, onChange }: { span: Span; onChange: (span: Span) => void }) {
  const t = useStore(progressMessages)
  return (
    <div role="group" aria-label={t.period} className="flex flex-wrap gap-1">
      {([30, 90] as const).map((each) => (
        <Button
          key={each}
          size="sm"
          variant={each === span ? 'primary' : 'outline'}
          aria-pressed={each === span}
          onClick={() => onChange(each)}
        >
          {each === 30 ? t.last30 : t.last90}
        </Button>
      ))}
    </div>
  )
}
