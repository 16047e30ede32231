import { type ReactNode, useId } from 'react'
import { cn } from '@/client/lib/cn'

/** A titled section of a page (the admin pages are made of them). */
export function Card({
  title,
  lead,
  actions,
  children,
  danger = false,
  className,
}: {
  title: string
  lead?: ReactNode
  actions?: ReactNode
  children?: ReactNode
  danger?: boolean
  className?: string
}) {
  const headingId = useId()
  return (
    <section
      aria-labelledby={headingId}
      className={cn('min-w-0 rounded-xl border bg-card p-4 sm:p-6', danger && 'border-error', className)}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold">
            {title}
          </h2>
          {lead && <div className="mt-1 text-sm text-muted-foreground">{lead}</div>}
        </div>
        {actions}
      </div>
      {children && <div className="mt-4">{children}</div>}
    </section>
  )
}
