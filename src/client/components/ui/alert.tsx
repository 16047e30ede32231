import type { ReactNode } from 'react'
import { cn } from '@/client/lib/cn'

/** An inline message; `error` is announced to screen readers as it appears. */
export function Alert({
  variant = 'info',
  children,
  className,
}: {
  variant?: 'info' | 'error' | 'success' | 'warning'
  children: ReactNode
  className?: string
}) {
  return (
    <div
      role={variant === 'error' ? 'alert' : 'status'}
      className={cn(
        'rounded-lg border p-4 text-sm',
        variant === 'error' && 'border-error bg-error-soft text-error',
        variant === 'success' && 'border-success text-success',
        variant === 'warning' && 'border-warning border-l-4',
        className,
      )}
    >
      {children}
    </div>
  )
}
