import { useStore } from '@nanostores/react'
import type { LanguageLevel } from '@/shared/levels'
import { cn } from '@/client/lib/cn'
import { format } from '@/client/lib/i18n'
import { dashboardMessages } from './messages'

/** The ordered levels as steps: done, current, target, and what lies between. */
export function Progress({
  levels,
  currentId,
  targetId,
}: {
  levels: LanguageLevel[]
  currentId: number | null
  targetId: number | null
}) {
  const t = useStore(dashboardMessages)
  const formats = useStore(format)
  const current = levels.findIndex((level) => level.id === currentId)
  const target = levels.findIndex((level) => level.id === targetId)
  const summary =
    current < 0
      ? t.progressNone
      : [
          t.progressAt({ position: formats.number(current + 1), count: formats.number(levels.length) }),
          target < 0
            ? undefined
            : target > current
              ? t.progressToTarget({ steps: target - current })
              : t.progressTargetReached,
        ]
          .filter(Boolean)
          .join(' · ')

  return (
    <div>
      <p className="text-sm text-muted-foreground">{summary}</p>
      <ol className="mt-4 flex gap-1.5">
        {levels.map((level, index) => {
          const state =
            index === current ? t.progressCurrent : index < current ? t.progressDone : index === target ? t.progressTarget : undefined
          return (
            <li
              key={level.id}
              aria-current={index === current ? 'step' : undefined}
              className="flex min-w-0 flex-1 flex-col items-center gap-1.5"
            >
              <span
                aria-hidden="true"
                className={cn(
                  'h-2.5 w-full rounded-full',
                  // One colour class each: `cn` does not merge, so two would leave it to the CSS order.
                  index <= current
                    ? 'bg-primary'
                    : index === target
                      ? 'bg-secondary'
                      : index < target
                        ? 'bg-secondary/40'
                        : 'bg-muted-foreground/25',
                )}
              />
              <span className={cn('font-mono text-xs font-semibold', index === current && 'text-primary-text')}>
                {level.code}
              </span>
              {state && <span className="sr-only">{state}</span>}
            </li>
          )
        })}
      </ol>
    </div>
  )
}
