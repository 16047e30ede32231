import type { ReactNode } from 'react'
import { cn } from '@/client/lib/cn'

/** Nothing to show: what is missing ('No data'), then what to do about it. */
export function EmptyState({ title, hint, className }: { title: string; hint: ReactNode; className?: string }) {
  return (
    <div className={cn('grid justify-items-center gap-1 py-6 text-center', className)}>
      <p className="font-medium">{title}</p>
      <p className="text-sm text-muted-foreground">{hint}</p>
    </div>
  )
}
